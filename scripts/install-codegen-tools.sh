#!/bin/sh
# Installs the code generators that serbench's generated code is made with
# and that its regeneration check (internal/gencheck) runs. Idempotent: a
# tool already on the PATH is left alone. Go plugins need nothing here: they
# are tool directives in go.mod, built on demand by `go tool`.
#
# The committed files were made with Debian 12's protobuf-compiler
# (libprotoc 3.21.12); another protoc version writes another version line
# into the generated headers, which the check reports as a difference.
#
# To add a tool: one more `need COMMAND DEBIAN-PACKAGE` line.
set -eu

missing=""

# need COMMAND PACKAGE: queue PACKAGE for installation if COMMAND is absent.
need() {
	if ! command -v "$1" >/dev/null 2>&1; then
		missing="$missing $2"
	fi
}

need protoc protobuf-compiler
# flatc 2.0.8 (Debian 12 "bookworm") generated codec/flatbuffers/fb.
need flatc flatbuffers-compiler
# capnp 0.9.2 (Debian 12) compiled codec/capnp/capnpb with the pinned capnpc-go.
need capnp capnproto
# thrift 0.17.0 (Debian 12) generated codec/thrift/gen-go.
need thrift thrift-compiler
# Not a generator: actionlint (the last step of .ci/run) checks the shell of
# each workflow's run steps with shellcheck when it is on the PATH.
need shellcheck shellcheck
# Not a generator: ab's TestRunInstructions counts instructions under
# valgrind's callgrind (serbench ab -measure instructions), and fails
# without it when CI=true.
need valgrind valgrind

if [ -n "$missing" ]; then
	if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
	$sudo apt-get update -qq
	# shellcheck disable=SC2086 # word splitting of the package list is intended
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
fi

protoc --version
flatc --version
capnp --version
thrift --version
