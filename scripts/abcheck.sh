#!/usr/bin/env bash
# Counts the false alarms and detections of `serbench ab` against the usual
# way, two separate `go test -bench` runs compared with benchstat, for
# docs/findings/noisy.md:
#
#   scripts/abcheck.sh [TRIALS] [GATE_PERCENT]     # default 10 trials, 5
#   AB_FLAGS='-rounds 20 -benchtime 50ms' scripts/abcheck.sh   # other ab settings
#
# It writes a scratch module (in a temporary folder, removed at the end)
# with two benchmarks that do not allocate, Marshal (a record appended as
# JSON to a reused buffer) and Parse (integers read back), at three
# commits: base; same (base with a comment added: identical code); slow
# (Marshal appends the record twice every tenth call: 10% more work). Each
# trial runs
#
#   serbench ab -base base -head same -max-regression GATE%   (any exit 1 is a false alarm)
#   serbench ab -base same -head slow -max-regression GATE%   (a regression line for Marshal is a detection)
#
# and, the usual way, `go test -bench . -count 10 -benchtime 100ms` once at
# base, at same and at slow, one after the other, then benchstat base→same
# and same→slow; a benchmark is flagged there when benchstat calls its
# change significant and it is more than GATE% slower. Both ways spend
# about the same time running each side: ten runs of 100 ms per benchmark.
set -euo pipefail
trials=${1:-10}
gate=${2:-5}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/serbench" ./cmd/serbench
go build -o "$work/benchstat" golang.org/x/perf/cmd/benchstat

mod=$work/mod
mkdir -p "$mod"
cd "$mod"
git() { command git -c user.name=abcheck -c user.email=abcheck@example.com -c commit.gpgsign=false "$@"; }
cat > go.mod <<'EOF'
module example.com/rec

go 1.22
EOF
cat > rec_test.go <<'EOF'
package rec

import "testing"

var (
	sample = Record{ID: 1234567, Name: "a record of about a hundred bytes", Score: 0.875,
		Tags: []string{"alpha", "beta", "gamma", "delta"}}
	buf  []byte
	sink int64
)

func BenchmarkMarshal(b *testing.B) {
	for i := 0; i < b.N; i++ {
		buf = Marshal(buf[:0], &sample)
	}
}

func BenchmarkParse(b *testing.B) {
	text := []string{"1234567", "-42", "9007199254740993", "0", "65535"}
	for i := 0; i < b.N; i++ {
		sink = Parse(text)
	}
}
EOF
record() { # the body of Marshal
	cat > rec.go <<EOF
package rec

import "strconv"

type Record struct {
	ID    int64
	Name  string
	Tags  []string
	Score float64
}

func (r *Record) appendTo(b []byte) []byte {
	b = append(b, \`{"id":\`...)
	b = strconv.AppendInt(b, r.ID, 10)
	b = append(b, \`,"name":\`...)
	b = strconv.AppendQuote(b, r.Name)
	b = append(b, \`,"tags":[\`...)
	for i, t := range r.Tags {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, t)
	}
	b = append(b, \`],"score":\`...)
	b = strconv.AppendFloat(b, r.Score, 'g', -1, 64)
	return append(b, '}')
}

$1

func Parse(text []string) int64 {
	var t int64
	for _, s := range text {
		n, _ := strconv.ParseInt(s, 10, 64)
		t += n
	}
	return t
}
EOF
}
record '// Marshal appends r to b as JSON.
func Marshal(b []byte, r *Record) []byte { return r.appendTo(b) }'
git init -q -b main
git add -A && git commit -q -m base && git tag base
record '// Marshal appends r to b as JSON (identical code).
func Marshal(b []byte, r *Record) []byte { return r.appendTo(b) }'
git commit -q -am same && git tag same
record 'var calls int

// Marshal appends r to b as JSON, and every tenth call once more.
func Marshal(b []byte, r *Record) []byte {
	calls++
	if calls%10 == 0 {
		b = r.appendTo(b)[:len(b)]
	}
	return r.appendTo(b)
}'
git commit -q -am slow && git tag slow
for rev in base same slow; do
	git worktree add -q --detach "$work/$rev" "$rev"
done

# flagged FILE: how many benchmarks benchstat found significantly more than
# gate% slower (a "+D.DD% (p=" delta).
flagged() {
	awk -v gate="$gate" '/% \(p=/ { for (i = 1; i <= NF; i++) if ($i ~ /^\+[0-9.]+%$/ && substr($i, 2) + 0 > gate) n++ } END { print n + 0 }' "$1"
}

echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
ab_alarms=0 ab_detect=0 ab_time=0 sep_alarms=0 sep_detect=0
for t in $(seq "$trials"); do
	if ! "$work/serbench" ab ${AB_FLAGS:-} -C "$mod" -base base -head same -max-regression "$gate%" >"$work/ab-same.txt" 2>"$work/ab-same.err"; then
		grep -q '^regression:' "$work/ab-same.err" || { cat "$work/ab-same.err"; exit 1; }
		ab_alarms=$((ab_alarms + 1))
	fi
	"$work/serbench" ab ${AB_FLAGS:-} -C "$mod" -base same -head slow -max-regression "$gate%" >"$work/ab-slow.txt" 2>"$work/ab-slow.err" || true
	if grep -q '^regression: Marshal' "$work/ab-slow.err"; then
		ab_detect=$((ab_detect + 1))
	fi
	if grep -q '^regression: Marshal.*: ns/op' "$work/ab-slow.err"; then
		ab_time=$((ab_time + 1))
	fi
	for rev in base same slow; do
		(cd "$work/$rev" && go test -run '^$' -bench . -benchmem -count 10 -benchtime 100ms >"$work/$rev.txt")
	done
	"$work/benchstat" "$work/base.txt" "$work/same.txt" >"$work/sep-same.txt"
	"$work/benchstat" "$work/same.txt" "$work/slow.txt" >"$work/sep-slow.txt"
	if [ "$(flagged "$work/sep-same.txt")" -gt 0 ]; then
		sep_alarms=$((sep_alarms + 1))
	fi
	if grep '^Marshal' "$work/sep-slow.txt" | head -1 | grep -q '+[0-9.]*% (p='; then
		d=$(grep '^Marshal' "$work/sep-slow.txt" | head -1 | grep -o '+[0-9.]*%' | tr -d '+%')
		if awk -v d="$d" -v gate="$gate" 'BEGIN { exit !(d > gate) }'; then
			sep_detect=$((sep_detect + 1))
		fi
	fi
	echo "trial $t: ab: $(grep -c '^regression:' "$work/ab-same.err" || true) false, slowdown: $(grep '^Marshal' "$work/ab-slow.txt" | tr -s ' '); separate runs: $(flagged "$work/sep-same.txt") false, slowdown: $(grep '^Marshal' "$work/sep-slow.txt" | head -1 | tr -s ' ')"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "serbench ab -max-regression $gate%: identical code flagged in $ab_alarms of $trials trials; the 10% slowdown of Marshal flagged in $ab_detect of $trials ($ab_time by time)"
echo "two separate runs + benchstat, more than $gate% slower and significant: identical code flagged in $sep_alarms of $trials trials; the slowdown flagged in $sep_detect of $trials"
