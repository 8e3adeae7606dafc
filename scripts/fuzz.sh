#!/bin/sh
# fuzz.sh runs every fuzz target of the module in turn for a duration each
# (default 5s): `scripts/fuzz.sh 5s` in CI, `scripts/fuzz.sh 10m` on your
# machine. A second argument limits it to one package pattern, e.g.
# `scripts/fuzz.sh 10m ./codec/wire`. It stops at the first target that
# fails; go test writes the failing input under <package>/testdata/fuzz/<Target>/.
# The wirefuzz tag leaves codec/wire's BenchmarkCodec (and every codec it
# links) out of the fuzz binary, which makes fuzzing several times faster.
set -eu
d="${1:-5s}"
pattern="${2:-./...}"
cd "$(dirname "$0")/.."
for pkg in $(go list "$pattern"); do
	targets=$(go test -tags wirefuzz -list '^Fuzz' "$pkg" | grep '^Fuzz' || true)
	for t in $targets; do
		echo "== $pkg $t ($d)"
		go test -tags wirefuzz -run='^$' -fuzz="^$t\$" -fuzztime="$d" "$pkg"
	done
done
