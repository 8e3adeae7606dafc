// Package opaquepb holds the Go types that protoc-gen-go generates with
// the Opaque API (default_api_level=API_OPAQUE: unexported fields reached
// through getters, setters and builders) from schema/proto/serbench.proto,
// copied into proto package serbench.opaque so that these types and
// package pb's open-struct ones can be linked into one program: the same
// messages and field numbers, so the same bytes. The API level is the
// plugin option, not an Edition 2023 feature in the schema: Debian's protoc
// 3.21.12, the one CI installs, predates editions (protoc 27 made them
// stable) and rejects `edition = "2023"`. Every field of message type is
// marked [lazy = true] in the copy (lazy decoding, which protoc-gen-go
// supports with the Opaque API only). serbench_opaque.pb.go is
// generated: regenerate with `go generate ./codec/protobuf/opaquepb`
// (needs protoc; see scripts/install-codegen-tools.sh). Package
// internal/gencheck holds the exact command and a test that the committed
// file matches it.
package opaquepb

//go:generate go run github.com/serbench/serbench/internal/gencheck/generate protobuf-opaque
