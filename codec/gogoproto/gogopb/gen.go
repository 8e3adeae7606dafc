// Package gogopb holds the Go types, with Marshal, Unmarshal and Size
// methods, that protoc-gen-gogofaster generates from
// schema/proto/serbench.proto, with google.protobuf.Timestamp as
// github.com/gogo/protobuf/types.Timestamp. Every other file here is
// generated: regenerate with `go generate ./codec/gogoproto/gogopb` (needs
// protoc; see scripts/install-codegen-tools.sh). Package internal/gencheck
// holds the exact commands and a test that the committed files match them.
package gogopb

//go:generate go run github.com/serbench/serbench/internal/gencheck/generate gogoproto
