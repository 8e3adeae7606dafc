#!/usr/bin/env bash
# Counts the regression gate's false alarms and detections on the files of
# scripts/gatecheck (trials of runs a, b: identical code; slow: one codec
# doing 10% more work), for docs/findings/noisy.md:
#
#   go run ./scripts/gatecheck -o DIR -trials 10      # the runs (about 90 s a trial)
#   scripts/gatecheck.sh DIR [5%]                      # the counts
#
# For each trial it runs `serbench compare -max-regression 5%` on a → b
# (identical code: any exit 1 is a false alarm) and on b → slow (exit 1
# with a line naming the slowed codec is a detection), once with the
# default drift-proof measure (speed-up within each run) and once with
# -by ns (raw ns/op, the measure before paired sampling). B/op and
# allocs/op gate too; the slowed codec does 10% more allocations as well,
# so the script also counts detections by time alone.
set -euo pipefail
dir=${1:?usage: scripts/gatecheck.sh DIR [THRESHOLD]}
gate=${2:-5%}
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/serbench
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/serbench
for by in speedup ns; do
	alarms=0 cells=0 detected=0 bytime=0 trials=0
	for a in "$dir"/t*-a.json; do
		t=${a%-a.json}
		[ -f "$t-b.json" ] && [ -f "$t-slow.json" ] || continue
		trials=$((trials + 1))
		slow=$(sed -n 's/.*"gatecheck.slow=\([^"]*\)".*/\1/p' "$t-slow.json" | head -1)
		if ! "$bin" compare -by "$by" -max-regression "$gate" "$a" "$t-b.json" >/dev/null 2>"$t-ab-$by.err"; then
			alarms=$((alarms + 1))
		fi
		cells=$((cells + $(grep -c "^regression:" "$t-ab-$by.err" || true)))
		"$bin" compare -by "$by" -max-regression "$gate" "$t-b.json" "$t-slow.json" >/dev/null 2>"$t-bslow-$by.err" || true
		if grep -q "^regression: .*codec=$slow " "$t-bslow-$by.err"; then
			detected=$((detected + 1))
		fi
		if grep "^regression: .*codec=$slow " "$t-bslow-$by.err" | grep -qv "B/op\|allocs/op"; then
			bytime=$((bytime + 1))
		fi
	done
	echo "-by $by, -max-regression $gate: identical code flagged in $alarms of $trials trials ($cells cell metrics); the 10% slowdown flagged in $detected of $trials ($bytime by time alone)"
done
