#!/bin/sh
# layouts.sh runs serbench under N code layouts and pools the samples, so
# that no one placement of functions in the binary decides a cell
# (docs/agreement.md, "Code layout"):
#
#   scripts/layouts.sh N OUTDIR [serbench run flags...]
#
# It builds serbench N times with -ldflags=-randlayout=1..N (the linker
# places functions in an order seeded by the number), runs each build with
# the flags given and -format benchfmt, and writes OUTDIR/layout<K>.txt,
# OUTDIR/pooled.txt (the N files one after the other: benchstat and
# serbench show pool the samples of a cell) and prints serbench show's
# table of the pooled file. The runs go one after the other, so the time
# is N times one run's.
set -eu
if [ $# -lt 2 ]; then
	echo "usage: scripts/layouts.sh N OUTDIR [serbench run flags...]" >&2
	exit 2
fi
n="$1"
out="$2"
shift 2
case "$n" in
'' | *[!0-9]*)
	echo "layouts.sh: N must be a whole number of layouts, got \"$n\"" >&2
	exit 2
	;;
esac
if [ "$n" -lt 1 ]; then
	echo "layouts.sh: N must be 1 or more, got $n" >&2
	exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
if [ -e "$out/pooled.txt" ]; then
	echo "layouts.sh: $out/pooled.txt exists; give an empty or new OUTDIR" >&2
	exit 1
fi
for s in $(seq 1 "$n"); do
	echo "layouts.sh: building layout $s of $n" >&2
	(cd "$root" && go build -ldflags="-randlayout=$s" -o "$out/serbench-layout$s" ./cmd/serbench)
done
for s in $(seq 1 "$n"); do
	echo "layouts.sh: layout $s of $n: serbench run $*" >&2
	"$out/serbench-layout$s" run "$@" -format benchfmt -o "$out/layout$s.txt"
	cat "$out/layout$s.txt" >>"$out/pooled.txt"
done
"$out/serbench-layout1" show "$out/pooled.txt"
