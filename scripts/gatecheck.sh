#!/usr/bin/env bash
# Counts the regression gate's false alarms and detections on the files of
# scripts/gatecheck (trials of runs a, b: identical code; slow: one codec
# doing 10% more work), for docs/findings/noisy.md:
#
#   go run ./scripts/gatecheck -o DIR -trials 10 [-replicates 3]   # the runs
#   scripts/gatecheck.sh DIR [5%]                                   # the counts
#
# For each trial it runs `serbench compare -max-regression 5%` on a → b
# (identical code: exit 1 is a false alarm, exit 3 an inconclusive verdict)
# and on b → slow (a regression line naming the slowed codec is a
# detection, an inconclusive one a change it could not resolve, neither a
# pass: the miss the gate must not make), with the default
# measure (speed-up within each run) and with -by ns (raw ns/op). With
# replicates, each side is the trial's runs of it, comma-separated, so the
# test is between runs. B/op and allocs/op gate too; the slowed codec does
# 10% more allocations as well, so detections by time alone are counted
# apart.
set -euo pipefail
dir=${1:?usage: scripts/gatecheck.sh DIR [THRESHOLD]}
gate=${2:-5%}
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/serbench
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/serbench
side() { # trial prefix, run name: the comma-separated replicates
	local files=("$1-$2"[0-9]*.json)
	local IFS=,
	echo "${files[*]}"
}
for by in speedup ns; do
	alarms=0 unsure=0 cells=0 detected=0 bytime=0 undecided=0 passed=0 trials=0 reps=0
	for a1 in "$dir"/t*-a1.json; do
		t=${a1%-a1.json}
		a=$(side "$t" a) b=$(side "$t" b) slow=$(side "$t" slow)
		trials=$((trials + 1))
		reps=$(echo "$a" | tr , '\n' | wc -l)
		codec=$(sed -n 's/.*"gatecheck.slow=\([^"]*\)".*/\1/p' "$t-slow1.json" | head -1)
		# Exit 1: a regression; 3: inconclusive (no regression, but a
		# change the comparison could not resolve at the gate).
		status=0
		"$bin" compare -by "$by" -max-regression "$gate" "$a" "$b" >/dev/null 2>"$t-ab-$by.err" || status=$?
		case $status in
		0) ;;
		1) alarms=$((alarms + 1)) ;;
		3) unsure=$((unsure + 1)) ;;
		*) cat "$t-ab-$by.err"; exit 1 ;;
		esac
		cells=$((cells + $(grep -c "^regression:" "$t-ab-$by.err" || true)))
		"$bin" compare -by "$by" -max-regression "$gate" "$b" "$slow" >/dev/null 2>"$t-bslow-$by.err" || true
		if grep -q "^regression: .*codec=$codec " "$t-bslow-$by.err"; then
			detected=$((detected + 1))
		elif grep -q "^inconclusive: .*codec=$codec " "$t-bslow-$by.err"; then
			undecided=$((undecided + 1))
		else
			passed=$((passed + 1))
		fi
		# Not grep -q in a pipeline: under pipefail, its early exit fails
		# the grep before it.
		n=$(grep "^regression: .*codec=$codec " "$t-bslow-$by.err" | grep -vc "B/op\|allocs/op" || true)
		if [ "${n:-0}" -gt 0 ]; then
			bytime=$((bytime + 1))
		fi
	done
	echo "-by $by, -max-regression $gate, $reps run(s) a side: identical code regressed in $alarms of $trials trials ($cells cell metrics), inconclusive in $unsure; the 10% slowdown regressed in $detected of $trials ($bytime by time alone), inconclusive in $undecided, passed in $passed"
done
