#!/bin/sh
# noisy-neighbour.sh [CPU] [PERIOD] - make this machine noisy on purpose.
#
# Runs scripts/noisyneighbour pinned to CPU (default: the last CPU), which
# alternates every PERIOD seconds (default 3) between idle and a busy loop
# of random writes over 32 MiB plus independent multiply chains, and prints
# a line as each phase starts. It stops by itself after 30 minutes
# (NOISY_DURATION=10m to change that), or on Ctrl-C or kill.
#
# Use it beside serbench to see what a busy neighbour (another tenant, a
# hyperthread sibling) does to the timings and to the noise line of the
# report:
#
#	scripts/noisy-neighbour.sh & go run ./cmd/serbench run ...; kill %1
#
# On a 2-vCPU machine whose vCPUs share a core, the report's noise line
# should then name the busy CPU and the ILP probe's spread should rise.
set -eu
cd "$(dirname "$0")/.."

last=$(($(getconf _NPROCESSORS_ONLN) - 1))
cpu=${1:-$last}
period=${2:-3}
duration=${NOISY_DURATION:-30m}

bin=$(mktemp -d)/noisyneighbour
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./scripts/noisyneighbour

# Not exec: the trap removes the binary when it stops. Signals to this
# shell are passed on to it.
if [ "$(uname -s)" != Linux ]; then
	echo "noisy-neighbour.sh: not Linux: running unpinned" >&2
	"$bin" -period "${period}s" -duration "$duration" &
elif command -v taskset >/dev/null 2>&1; then
	taskset -c "$cpu" "$bin" -period "${period}s" -duration "$duration" &
else
	"$bin" -cpu "$cpu" -period "${period}s" -duration "$duration" &
fi
child=$!
trap 'kill "$child" 2>/dev/null' INT TERM
wait "$child" || wait "$child"
