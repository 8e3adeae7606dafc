#!/bin/sh
# derived-vs-handwritten.sh times serbench's hand-written schema codecs
# (protobuf, vtprotobuf, flatbuffers in codec/all, on the scenario package's
# seed values) against the codecs `serbench init -codegen` derives from the
# same Go types, in one benchmark binary, and prints per seed, codec and
# operation: the hand-written and derived ns/op (medians), their ratio and
# both encoded sizes (B/msg), and a "round trip" row per seed and codec
# adding up its operations (marshal, unmarshal and, where the codec works
# on its own generated type, convert). It answers issue 32's target "derived rows
# within 10% of the hand-written rows in ns/op, the same encoded size or a
# stated reason" (docs/findings/derived.md).
#
#   scripts/derived-vs-handwritten.sh [OUTDIR]
#
# Output: the table on stdout (also OUTDIR/summary.txt), progress and the
# load average of each pass on stderr. OUTDIR keeps raw.txt (benchfmt) and
# init's output per package; with OUTDIR the scratch module is kept too
# (its path is printed first), without it both are removed at the end.
#
# What it does, in a scratch module made with mktemp -d outside the checkout
# (a replace directive points github.com/serbench/serbench at it):
#   1. copies scenario/seeds.go, renamed, into one package per seed type
#      (SSEEvent, UserEvent, WSMessage, Annotation, UserProfile with their
#      nested types and New* constructors), so the copy follows the seeds;
#   2. runs `serbench init -type T -codegen protobuf,vtprotobuf,flatbuffers
#      -get` in each and `go generate ./...` (protoc and flatc 2.0.8 needed:
#      scripts/install-codegen-tools.sh);
#   3. turns each package's derived codecs (init's Options.Extra line and
#      the FlatBuffers and protobuf conversions it generated) into non-test code, so one
#      test binary holds both sides;
#   4. runs that binary COUNT times with -test.count 1, each pass timing
#      every cell of both sides, alternating hand=/derived= order between
#      passes, so that a drift of the machine falls on both alike;
#   5. summarises the raw benchfmt output (OUTDIR/raw.txt; benchstat reads
#      it too, e.g. benchstat -col /side raw.txt).
#
# Settings, from the environment: COUNT passes (default 6), BENCHTIME per
# cell and pass (default 200ms). Run time on a shared 2-core machine: about
# 1 minute of builds (serbench, the generators, the test binary), then about
# 30 s per pass: 4 minutes with the defaults, 6 with COUNT=10. It needs
# protoc, flatc 2.0.8 and the module proxy (for the pinned generators). It
# is a measurement, not a test: CI does not run it.
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
count="${COUNT:-6}"
benchtime="${BENCHTIME:-200ms}"
work="$(mktemp -d)"
if [ $# -gt 0 ]; then
	out="$1"
	mkdir -p "$out"
	out="$(cd "$out" && pwd)"
else
	out="$work/out"
	mkdir -p "$out"
	trap 'rm -rf "$work"' EXIT
fi
export GOTOOLCHAIN="${GOTOOLCHAIN:-auto}" GOFLAGS=-mod=mod GOWORK=off

echo "derived-vs-handwritten.sh: scratch module $work" >&2
(cd "$root" && go build -o "$work/serbench" ./cmd/serbench)
mod="$work/mod"
mkdir -p "$mod"
cd "$mod"
cat >go.mod <<EOF
module seedcopy

go 1.26.0

require github.com/serbench/serbench v0.0.0-00010101000000-000000000000

replace github.com/serbench/serbench => $root
EOF

# seed ID, Go type, package name
seeds="sse-event:SSEEvent:sseevent user-event:UserEvent:userevent ws-message:WSMessage:wsmessage annotation:Annotation:annotation user-profile:UserProfile:userprofile"

for s in $seeds; do
	typ="$(echo "$s" | cut -d: -f2)"
	pkg="$(echo "$s" | cut -d: -f3)"
	mkdir "$pkg"
	sed "s/^package scenario\$/package $pkg/" "$root/scenario/seeds.go" >"$pkg/seeds.go"
	# A type init cannot derive every schema for is reported, then given
	# the codecs it can derive alone (init writes nothing when one fails).
	for gens in protobuf,vtprotobuf,flatbuffers flatbuffers protobuf,vtprotobuf; do
		if (cd "$pkg" && "$work/serbench" init -type "$typ" -codegen "$gens" -get >"$out/init-$pkg.txt" 2>&1); then
			break
		fi
		echo "derived-vs-handwritten.sh: serbench init -type $typ -codegen $gens failed:" >&2
		sed 's/^/  /' "$out/init-$pkg.txt" >&2
		gens=""
	done
	if [ -z "$gens" ]; then
		echo "derived-vs-handwritten.sh: no derived codec for $typ" >&2
		exit 1
	fi
done
echo "derived-vs-handwritten.sh: go generate" >&2
go generate ./...

for s in $seeds; do
	typ="$(echo "$s" | cut -d: -f2)"
	pkg="$(echo "$s" | cut -d: -f3)"
	for conv in flatbuffers protobuf; do
		if [ -e "$pkg/serbench_${conv}_test.go" ]; then
			mv "$pkg/serbench_${conv}_test.go" "$pkg/serbench_${conv}.go"
		fi
	done
	extra="$(sed -n 's/^	Extra: *\(.*\),$/\1/p' "$pkg/serbench_test.go")"
	if [ -z "$extra" ]; then
		echo "derived-vs-handwritten.sh: no Extra line in $pkg/serbench_test.go (did init's output change?)" >&2
		exit 1
	fi
	cat >"$pkg/derived.go" <<EOF
package $pkg

import (
	"github.com/serbench/serbench"
	"github.com/serbench/serbench/codec"
)

var _ = serbench.Benchmark

// Derived are the codecs serbench init wrote into serbench_test.go's Options.Extra.
func Derived() []codec.Codec { return $extra }

// Sample is the seed value, from the copy of scenario/seeds.go.
func Sample() any { return New$typ() }
EOF
done

mkdir cmp
{
	cat <<'EOF'
package cmp

import (
	"flag"
	"testing"

	"github.com/serbench/serbench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/scenario"
EOF
	for s in $seeds; do echo "	\"seedcopy/$(echo "$s" | cut -d: -f3)\""; done
	cat <<'EOF'
)

var derivedFirst = flag.Bool("derived-first", false, "time the derived side first")

type seed struct {
	id            string
	hand, derived any
	codecs        []codec.Codec
}

func BenchmarkCmp(b *testing.B) {
	seeds := []seed{
EOF
	for s in $seeds; do
		id="$(echo "$s" | cut -d: -f1)"
		typ="$(echo "$s" | cut -d: -f2)"
		pkg="$(echo "$s" | cut -d: -f3)"
		echo "		{\"$id\", scenario.New$typ(), $pkg.Sample(), $pkg.Derived()},"
	done
	cat <<'EOF'
	}
	hand := func(b *testing.B, s seed) {
		b.Run("side=hand", func(b *testing.B) {
			serbench.Benchmark(b, s.hand, serbench.Options{Registry: all.Registry(), Codecs: []string{"protobuf", "vtprotobuf", "flatbuffers"}})
		})
	}
	derived := func(b *testing.B, s seed) {
		b.Run("side=derived", func(b *testing.B) {
			serbench.Benchmark(b, s.derived, serbench.Options{Codecs: []string{}, Extra: s.codecs})
		})
	}
	for _, s := range seeds {
		b.Run("seed="+s.id, func(b *testing.B) {
			if *derivedFirst {
				derived(b, s)
				hand(b, s)
			} else {
				hand(b, s)
				derived(b, s)
			}
		})
	}
}
EOF
} >cmp/cmp_test.go

mkdir summarise
cat >summarise/main.go <<'EOF'
// Command summarise reads the benchfmt output of BenchmarkCmp on stdin and
// prints per seed, codec and op the median ns/op of both sides, their
// ratio (derived / hand) and both encoded sizes in B/msg.
package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
)

type key struct{ seed, codec, op string }

func main() {
	ns := map[key]map[string][]float64{}
	size := map[key]map[string]float64{}
	var keys []key
	r := benchfmt.NewReader(os.Stdin, "stdin")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		var k key
		var side string
		_, parts := res.Name.Parts()
		for _, p := range parts {
			name, val, _ := strings.Cut(strings.TrimPrefix(string(p), "/"), "=")
			switch name {
			case "seed":
				k.seed = val
			case "side":
				side = val
			case "codec":
				k.codec = val
			case "op":
				k.op = val
			case "lossy":
				side += "(lossy)"
			}
		}
		side = strings.TrimSuffix(side, "(lossy)")
		if ns[k] == nil {
			ns[k] = map[string][]float64{}
			size[k] = map[string]float64{}
			keys = append(keys, k)
		}
		if v, ok := res.Value("sec/op"); ok {
			ns[k][side] = append(ns[k][side], v*1e9)
		}
		if v, ok := res.Value("B/msg"); ok {
			size[k][side] = v
		}
	}
	if err := r.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "summarise:", err)
		os.Exit(1)
	}
	// A "round trip" row per seed and codec adds up the medians of its
	// ops: Go value to bytes and back, conversion included. It is the
	// figure to compare where the two sides split the work differently
	// (the hand-written flatbuffers converts to flatc's object API as
	// op=convert, the derived one builds and reads the Go value directly).
	var all []key
	for i, k := range keys {
		all = append(all, k)
		if i+1 < len(keys) && keys[i+1].seed == k.seed && keys[i+1].codec == k.codec {
			continue
		}
		rt := key{k.seed, k.codec, "round trip"}
		ns[rt] = map[string][]float64{}
		size[rt] = size[key{k.seed, k.codec, "marshal"}]
		for _, side := range []string{"hand", "derived"} {
			sum := 0.0
			for _, o := range keys {
				if o.seed == k.seed && o.codec == k.codec {
					sum += median(ns[o][side])
				}
			}
			if sum > 0 {
				ns[rt][side] = []float64{sum}
			}
		}
		all = append(all, rt)
	}
	fmt.Printf("%-13s %-12s %-10s %10s %10s %7s %7s %7s %s\n", "seed", "codec", "op", "hand ns/op", "derived", "ratio", "hand B", "der. B", "n")
	for _, k := range all {
		h, d := median(ns[k]["hand"]), median(ns[k]["derived"])
		ratio := "-"
		if h > 0 && d > 0 {
			ratio = fmt.Sprintf("%.2f", d/h)
		}
		fmt.Printf("%-13s %-12s %-10s %10s %10s %7s %7s %7s %d/%d\n", k.seed, k.codec, k.op, num(h), num(d), ratio, num(size[k]["hand"]), num(size[k]["derived"]), len(ns[k]["hand"]), len(ns[k]["derived"]))
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func num(v float64) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", v)
}
EOF

go mod tidy
go test -c -o "$work/cmp.test" ./cmp
go build -o "$work/summarise" ./summarise

: >"$out/raw.txt"
i=1
while [ "$i" -le "$count" ]; do
	flag=""
	if [ $((i % 2)) -eq 0 ]; then flag="-derived-first"; fi
	echo "derived-vs-handwritten.sh: pass $i of $count $flag (load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown))" >&2
	(cd cmp && "$work/cmp.test" -test.run '^$' -test.bench Cmp -test.benchtime "$benchtime" -test.count 1 $flag) >>"$out/raw.txt"
	i=$((i + 1))
done
"$work/summarise" <"$out/raw.txt" | tee "$out/summary.txt"
