#!/bin/sh
# attacks.sh - replay issue 44's attacks on `serbench serve` (a child
# process) and check the target for each: alive after it, peak RSS under
# 1 GiB, a victim stream from another client at 90% or more of its rate,
# a new stream from another client served during it. Then prints the
# resident bytes per idle subscriber (plain and gzip) and per replay
# stream. About 40 s; Linux only. CI runs it (.ci/run).
#
#	scripts/attacks.sh [-window 2s] [-victim-rate 100]
set -eu
cd "$(dirname "$0")/.."

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/serbench" ./cmd/serbench
go build -o "$dir/attacks" ./scripts/attacks
"$dir/attacks" -serbench "$dir/serbench" "$@"
