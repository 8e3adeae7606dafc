#!/bin/sh
# fuzz.sh runs every fuzz target of the module in turn for a duration each
# (default 5s): `scripts/fuzz.sh 3s` in CI, `scripts/fuzz.sh 10m` on your
# machine. A second argument limits it to one package pattern, e.g.
# `scripts/fuzz.sh 10m ./codec/wire`. It stops at the first target that
# fails; go test writes the failing input under <package>/testdata/fuzz/<Target>/.
# The wirefuzz tag leaves codec/wire's BenchmarkCodec (and every codec it
# links) out of the fuzz binary, which makes fuzzing several times faster.
#
# Go 1.26's fuzz coordinator can report "context deadline exceeded" as a
# failure when -fuzztime runs out while a worker is busy, with no failing
# input (golang/go#75804, fixed in Go 1.27). A run that fails that way and
# wrote no new file under testdata/fuzz/<Target>/ is reported and not
# counted as a failure; any other failure is.
set -eu
d="${1:-5s}"
pattern="${2:-./...}"
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Only the packages whose test files declare a fuzz target are listed with
# go test -list (which builds the package's tests): building every
# package's tests under the wirefuzz tag to find none took minutes.
for pkg in $(go list -f '{{.ImportPath}} {{.Dir}}' "$pattern" | while read -r p dir; do
	if grep -qs '^func Fuzz' "$dir"/*_test.go; then echo "$p"; fi
done); do
	targets=$(go test -tags wirefuzz -list '^Fuzz' "$pkg" | grep '^Fuzz' || true)
	[ -n "$targets" ] || continue
	dir=$(go list -f '{{.Dir}}' "$pkg")
	for t in $targets; do
		echo "== $pkg $t ($d)"
		before=$(ls "$dir/testdata/fuzz/$t" 2>/dev/null | wc -l)
		if go test -tags wirefuzz -run='^$' -fuzz="^$t\$" -fuzztime="$d" "$pkg" >"$log" 2>&1; then
			tail -n 1 "$log"
			continue
		fi
		after=$(ls "$dir/testdata/fuzz/$t" 2>/dev/null | wc -l)
		if [ "$after" -eq "$before" ] && grep -q '^    context deadline exceeded$' "$log" &&
			[ "$(grep -c -- '--- FAIL' "$log")" -eq 1 ]; then
			grep 'fuzz: elapsed' "$log" | tail -n 1
			echo "   (ended with Go's fuzztime race, golang/go#75804; no failing input: not a failure)"
			continue
		fi
		cat "$log"
		echo "FAIL: $pkg $t" >&2
		exit 1
	done
done
