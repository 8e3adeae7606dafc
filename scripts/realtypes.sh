#!/usr/bin/env bash
# realtypes.sh - serbench init, codegen and the derived rows on a type
# serbench did not design: go-github's Repository (every field a pointer, a
# Timestamp time wrapper, repositories nested in it, map[string]interface{}
# and map[string]bool fields), as docs/your-type.md ("On a real library's
# types") walks through by hand.
#
#   scripts/realtypes.sh            # about 2 minutes with a warm module cache
#
# In a scratch module (a temporary folder, removed at the end) that requires
# github.com/google/go-github/v66 v66.0.0 and replaces serbench with this
# checkout, it runs what a user runs:
#
#   serbench init -type github.com/google/go-github/v66/github.Repository \
#       -codegen protobuf,vtprotobuf,flatbuffers -get -skip CustomProperties
#   go generate && go mod tidy
#
# then a test of its own beside the generated one, on
# testdata/realtypes/github-repository.json (a repository in the API's shape,
# written for serbench): it requires that encoding/json, the three generated
# codecs (protobuf, vtprotobuf, flatbuffers) and protobuf/derived keep the
# value exactly (serbench.Options.Require), and that each of them times
# (a benchmark of 20 iterations whose output must name them). It also
# checks that init refuses the type without the skip, naming the field and
# the -skip value. It needs protoc, flatc 2.0.8 and protoc-gen-go's
# generators (scripts/install-codegen-tools.sh) and the module proxy.
# Exit status 0 when all of it holds.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "realtypes: $*" >&2; exit 1; }

go build -o "$work/serbench" "$root/cmd/serbench"
mod=$work/ghbench
mkdir -p "$mod/ghrepo/testdata"
cd "$mod"
cat >go.mod <<MOD
module example.com/ghbench

go 1.26.0

require github.com/serbench/serbench v0.0.0-00010101000000-000000000000

replace github.com/serbench/serbench => $root
MOD
# serbench's own go.sum covers its dependencies (the replace gives them no
# other source of checksums).
cp "$root/go.sum" go.sum
echo 'package ghrepo' >ghrepo/doc.go
cp "$root/testdata/realtypes/github-repository.json" ghrepo/testdata/repository.json
go get github.com/serbench/serbench@v0.0.0-00010101000000-000000000000 github.com/google/go-github/v66/github@v66.0.0
cd ghrepo

echo "== init without -skip: a refusal that names the field and the -skip value"
if "$work/serbench" init -type github.com/google/go-github/v66/github.Repository -codegen protobuf >"$work/refused.out" 2>&1; then
	fail "init took Repository with its map[string]interface{} field: $(cat "$work/refused.out")"
fi
grep -q 'CustomProperties' "$work/refused.out" || fail "init's refusal does not name CustomProperties: $(cat "$work/refused.out")"
grep -q -- '-skip' "$work/refused.out" || fail "init's refusal does not say -skip: $(cat "$work/refused.out")"
rm -f serbench_test.go
rm -rf serbenchpb serbenchfb

echo "== serbench init -codegen protobuf,vtprotobuf,flatbuffers -get -skip CustomProperties"
"$work/serbench" init -type github.com/google/go-github/v66/github.Repository -codegen protobuf,vtprotobuf,flatbuffers -get -skip CustomProperties
echo "== go generate && go mod tidy"
go generate
go mod tidy

cat >realtypes_test.go <<'TEST'
package ghrepo

import (
	"testing"

	"github.com/google/go-github/v66/github"
	"github.com/serbench/serbench"
)

// kept are the codecs that must round-trip the repository exactly.
var kept = []string{"encoding/json", "protobuf", "vtprotobuf", "flatbuffers", "protobuf/derived"}

func realSample(tb testing.TB) *github.Repository {
	v, _, err := serbench.FromJSONWith[github.Repository]("testdata/repository.json", serbench.SampleOptions{IgnoreUnknown: true})
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

func realOptions() serbench.Options {
	o := serbenchOptions
	o.Codecs = kept
	o.Require = kept
	return o
}

func TestRealSample(t *testing.T) { serbench.Check(t, realSample(t), realOptions()) }

func BenchmarkRealSample(b *testing.B) { serbench.Benchmark(b, realSample(b), realOptions()) }
TEST

echo "== go test: the generated TestCodecs and the repository fixture, each required codec exact"
go test -count 1 -run 'TestCodecs|TestRealSample' -v . >"$work/test.out" 2>&1 || {
	cat "$work/test.out"
	fail "the tests failed"
}

echo "== go test -bench RealSample -benchtime 20x: every required codec times"
go test -count 1 -run '^$' -bench RealSample -benchtime 20x . >"$work/bench.out" 2>&1 || {
	cat "$work/bench.out"
	fail "the benchmark failed"
}
# A benchmark name writes a codec ID's slash as a dot (codec=encoding.json).
for c in encoding.json protobuf vtprotobuf flatbuffers protobuf.derived; do
	grep -q "codec=$c/op=unmarshal" "$work/bench.out" || {
		cat "$work/bench.out"
		fail "the benchmark has no line of codec $c"
	}
done
echo "realtypes: go-github v66 Repository through init, codegen, the fidelity check and the benchmark: ok"
