#!/bin/sh
# Installs the code generators that are not Go modules, so that the
# regeneration checks (go test ./codec/...) can run; with CI=true those
# checks fail rather than skip when a generator is missing. Idempotent: a
# tool already on PATH is left alone. Needs root and Debian's apt (run
# apt-get update first on a fresh machine). The Go generators (easyjson,
# ffjson, msgp) are go.mod tool directives and need nothing here.
set -eu

# flatc 2.0.8 (Debian 12 "bookworm") generated codec/flatbuffers/fb.
command -v flatc >/dev/null || apt-get install -y flatbuffers-compiler
