#!/bin/sh
# fuzz.sh runs each fuzz target of codec/wire in turn for a duration
# (default 5s), e.g. `scripts/fuzz.sh 5s` in CI or `scripts/fuzz.sh 10m`.
# It stops at the first target that fails; the failing input is written under
# codec/wire/testdata/fuzz/<Target>/ by go test. The wirefuzz tag leaves
# BenchmarkCodec (and every other codec it links) out of the fuzz binary.
set -eu
d="${1:-5s}"
cd "$(dirname "$0")/.."
for t in FuzzSSEEvent FuzzUserEvent FuzzWSMessage FuzzAnnotation FuzzUserProfile; do
	echo "== $t ($d)"
	go test -tags wirefuzz -run='^$' -fuzz="^$t\$" -fuzztime="$d" ./codec/wire
done
