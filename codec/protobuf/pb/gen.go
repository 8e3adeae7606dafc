// Package pb holds the Go types that protoc-gen-go generates from
// schema/proto/serbench.proto, and the MarshalVT, UnmarshalVT and SizeVT
// methods that protoc-gen-go-vtproto adds to them (features
// marshal+unmarshal+size). Every other file here is generated: regenerate
// with `go generate ./codec/protobuf/pb` (needs protoc; see
// scripts/install-codegen-tools.sh). Package internal/gencheck holds the
// exact commands and a test that the committed files match them.
package pb

//go:generate go run github.com/serbench/serbench/internal/gencheck/generate protobuf
