#!/bin/sh
# agree.sh measures how far serbench's speed-ups over encoding/json agree with
# those of plain `go test` loops (the module `serbench export` writes), under
# each GC condition, and prints the agreement table (docs/agreement.md):
#
#   scripts/agree.sh [OUTDIR]        (default OUTDIR: agree-out)
#
# Settings, from the environment:
#   CODECS      codecs to compare, IDs and groups as in serbench run
#               (default: default, the default set: library codecs as their
#               own calls, the others through their serbench adapter)
#   SCENARIOS   scenarios (default: the five seeds)
#   LIVE_HEAPS  GC conditions, space-separated -live-heap sizes (default
#               64MiB, serbench run's default; "0 64MiB" for both)
#   COUNT       samples per cell on each side and layout (default 5)
#   BENCHTIME   go test -benchtime of the plain loops (default 100ms)
#   INTERLEAVE  1 (default): COUNT passes of one sample of every cell, so
#               that a drift of the machine falls on all cells alike, as in
#               serbench's rounds; 0: the plain loops take COUNT samples of
#               each cell back to back (go test -count). Each pass is a new
#               process, whose first benchmark would pay for first touching
#               the heap's pages (docs/findings/noisy.md), so a pass runs
#               every cell twice in a row (-test.count 2) and keeps the
#               second sample, as serbench warms each cell before sampling
#   LAYOUTS     4 (default): build both sides N times with
#               -ldflags=-randlayout=1..N and pool the samples, so that no
#               one function order decides a cell (docs/agreement.md, "Code
#               layout"); 0: the linker's own layout, one build a side
#
# With the defaults it takes about 20 minutes on a 2-core machine; the
# pre-2026-11-26 defaults (LIVE_HEAPS="0 64MiB" COUNT=10 BENCHTIME=1s
# INTERLEAVE=0 LAYOUTS=0) about 80. OUTDIR keeps the raw files: serbench-<live heap>.txt and
# export-<live heap>.txt (benchfmt, for benchstat too) and agreement.md.
set -eu
out="${1:-agree-out}"
codecs="${CODECS:-default}"
scenarios="${SCENARIOS:-sse-event,user-event,ws-message,annotation,user-profile}"
heaps="${LIVE_HEAPS:-64MiB}"
count="${COUNT:-5}"
benchtime="${BENCHTIME:-100ms}"
layouts="${LAYOUTS:-4}"
interleave="${INTERLEAVE:-1}"

root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
if [ -e "$out/export" ]; then
	echo "agree.sh: $out/export exists; give an empty or new OUTDIR" >&2
	exit 1
fi

seeds=0
if [ "$layouts" -gt 0 ]; then
	seeds=$(seq 1 "$layouts")
fi
ldflags() {
	if [ "$1" -gt 0 ]; then echo "-ldflags=-randlayout=$1"; fi
}

echo "agree.sh: building serbench and the exported module (layouts: $seeds)" >&2
for s in $seeds; do
	(cd "$root" && go build $(ldflags "$s") -o "$out/serbench-layout$s" ./cmd/serbench)
done
first=$(echo $seeds | cut -d' ' -f1)
"$out/serbench-layout$first" export -o "$out/export" -serbench "$root" -codecs "$codecs" -scenarios "$scenarios" >&2
for s in $seeds; do
	(cd "$out/export" && go test -c $(ldflags "$s") -o "$out/export-layout$s.test" .)
done

pairs=""
for lh in $heaps; do
	: >"$out/serbench-$lh.txt"
	: >"$out/export-$lh.txt"
	for s in $seeds; do
		echo "agree.sh: live heap $lh, layout $s: serbench run" >&2
		"$out/serbench-layout$s" run -codecs "$codecs" -scenarios "$scenarios" -live-heap "$lh" \
			-count "$count" -format benchfmt -o "$out/serbench-$lh-layout$s.txt"
		cat "$out/serbench-$lh-layout$s.txt" >>"$out/serbench-$lh.txt"
		echo "agree.sh: live heap $lh, layout $s: go test in the exported module" >&2
		if [ "$interleave" = 1 ]; then
			# count passes of one sample of every cell, as serbench takes
			# its rounds, rather than count samples of one cell back to back;
			# each cell's first sample of a pass is a warm-up, left out
			i=0
			while [ "$i" -lt "$count" ]; do
				(cd "$out/export" && SERBENCH_LIVE_HEAP="$lh" "$out/export-layout$s.test" -test.run '^$' \
					-test.bench . -test.count 2 -test.benchtime "$benchtime") >"$out/pass.txt"
				awk '/^Benchmark/ { if (seen[$1]++) print; next } { print }' "$out/pass.txt" >>"$out/export-$lh.txt"
				i=$((i + 1))
			done
		else
			(cd "$out/export" && SERBENCH_LIVE_HEAP="$lh" "$out/export-layout$s.test" -test.run '^$' \
				-test.bench . -test.count "$count" -test.benchtime "$benchtime") >>"$out/export-$lh.txt"
		fi
	done
	pairs="$pairs $out/serbench-$lh.txt $out/export-$lh.txt"
done
# shellcheck disable=SC2086 # pairs is a list of paths without spaces
"$out/serbench-layout$first" agree -format markdown $pairs | tee "$out/agreement.md"
