// Package pbv1 holds the Go types that protoc-gen-go generates from
// schema/proto/evolve/order_v1.proto, version v1 of the order type of
// package evolve. Every other file here is generated: regenerate with
// `go generate ./evolve/pbv1` (needs protoc; see
// scripts/install-codegen-tools.sh). Package internal/gencheck holds the
// exact command and a test that the committed file matches it.
package pbv1

//go:generate go run github.com/serbench/serbench/internal/gencheck/generate evolve-v1
