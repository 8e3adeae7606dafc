#!/usr/bin/env bash
# test-arm64.sh cross-builds the codec and fidelity tests for linux/arm64 and
# runs them under Debian's qemu-user (qemu-aarch64), so that every codec is
# known to round-trip on arm64 even on an amd64 machine. Under emulation only
# the correctness checks count: timings measure the emulator (serbench marks
# such a run, see env.emulated in docs/reference.md). Installs qemu-user with
# apt-get when qemu-aarch64 is missing (needs root or sudo).
#
# usage: scripts/test-arm64.sh [go test flags...]
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v qemu-aarch64 >/dev/null 2>&1; then
	if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq qemu-user
fi
qemu-aarch64 --version | head -1

# Cross-compiled test binaries are static (CGO_ENABLED=0), so qemu-aarch64
# needs no arm64 system libraries.
# The generated-code checks run code generators with go tool, which would
# build them for arm64 too; they do not depend on the architecture and run
# natively in go test ./....
GOARCH=arm64 CGO_ENABLED=0 go test -exec qemu-aarch64 -skip TestGeneratedCodeIsCurrent "$@" ./codec/... ./fidelity/...
