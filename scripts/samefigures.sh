#!/bin/sh
# samefigures.sh checks that a change of how serbench builds and reads runs
# moves no figure: two serbench binaries, BEFORE and AFTER (built, say, at
# main and at a branch), each read the same saved runs and write them again
# with `serbench show`, and the outputs must be the same but for the keys
# that were renamed (json_ratio is now bytes_over_json, regimes now modes).
#
#   scripts/samefigures.sh BEFORE AFTER [RUN.json ...]
#
# The runs are the archived ones (archive/runs/*.json), the old-key run of
# cmd/serbench/testdata/plan-run.json, and, unless FRESH=0, a small run that
# BEFORE makes now (-compress gzip, so that bytes_over_json is in it;
# -count 12, so that a bimodal cell can show). Each run is compared as
#   json   both outputs with their keys sorted (jq -S) and the old names
#          mapped to the new: key order is not part of the contract;
#   table  byte for byte (every figure as the reader sees it);
#   csv    byte for byte, the old column name mapped to the new.
# The fresh run is also written as benchfmt (compared the same way), and
# checked once more as "derived": its JSON stripped of every derived figure
# (the speed-ups, floor_ratio, json_ratio, regimes, and the run's
# recommendations, geomeans and plateaus) and read by AFTER must give back
# what BEFORE's runner wrote, so AFTER derives as BEFORE's runner did.
# It prints one line a run and format, and exits 1 when any differs.
set -eu
if [ $# -lt 2 ]; then
	echo "usage: scripts/samefigures.sh BEFORE AFTER [RUN.json ...]" >&2
	exit 2
fi
before="$1"
after="$2"
shift 2
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ $# -eq 0 ]; then
	set -- "$root"/archive/runs/*.json "$root/cmd/serbench/testdata/plan-run.json"
	if [ "${FRESH:-1}" = 1 ]; then
		"$before" run -codecs encoding/json,memmove,msgpack,cbor -scenarios ws-message,sse-event \
			-count 12 -benchtime 2ms -compress gzip -format json -o "$tmp/fresh.json" 2>/dev/null
		"$before" show -format benchfmt -o "$tmp/fresh.txt" "$tmp/fresh.json"
		set -- "$@" "$tmp/fresh.json" "$tmp/fresh.txt"
	fi
fi
# renamed maps the old key names to the new ones, everywhere in a document.
renamed='walk(if type == "object" then with_entries(.key |= (if . == "json_ratio" then "bytes_over_json" elif . == "regimes" then "modes" else . end)) else . end)'
status=0
for run in "$@"; do
	name="$(basename "$run")"
	for format in json table csv; do
		"$before" show -format "$format" "$run" >"$tmp/before.$format"
		"$after" show -format "$format" "$run" >"$tmp/after.$format"
		case "$format" in
		json)
			jq -S "$renamed" "$tmp/before.json" >"$tmp/b"
			jq -S . "$tmp/after.json" >"$tmp/a"
			;;
		csv)
			sed '1s/json_ratio/bytes_over_json/' "$tmp/before.csv" >"$tmp/b"
			cp "$tmp/after.csv" "$tmp/a"
			;;
		*)
			cp "$tmp/before.$format" "$tmp/b"
			cp "$tmp/after.$format" "$tmp/a"
			;;
		esac
		if cmp -s "$tmp/b" "$tmp/a"; then
			echo "same     $format $name ($(wc -l <"$tmp/a") lines)"
		else
			echo "DIFFERS  $format $name:"
			diff "$tmp/b" "$tmp/a" | head -20
			status=1
		fi
	done
done
if [ -e "$tmp/fresh.json" ]; then
	strip='del(.recommendations, .geomeans, .plateaus) | .results[] |= del(.speedup, .speedup_p, .speedup_lo, .speedup_hi, .floor_ratio, .json_ratio, .regimes)'
	jq "$strip" "$tmp/fresh.json" >"$tmp/stripped.json"
	jq -S "$renamed" "$tmp/fresh.json" >"$tmp/b"
	"$after" show -format json "$tmp/stripped.json" | jq -S . >"$tmp/a"
	if cmp -s "$tmp/b" "$tmp/a"; then
		echo "same     derived fresh.json: every derived figure derived again from the measured ones"
	else
		echo "DIFFERS  derived fresh.json:"
		diff "$tmp/b" "$tmp/a" | head -20
		status=1
	fi
fi
exit "$status"
