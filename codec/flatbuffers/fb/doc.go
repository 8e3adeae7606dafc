// Package fb is the Go code that flatc, the FlatBuffers compiler, generates
// from schema/flatbuffers/serbench.fbs: for each table T, the accessor type
// T (read in place), the builder functions, and the object API type TT with
// its Pack and UnPack methods. Every other file of this folder is generated;
// edit the schema and run go generate here instead.
//
// The compiler is Debian's flatbuffers-compiler 2.0.8, matching the Go
// runtime module github.com/google/flatbuffers v2.0.8+incompatible. Its Go
// output is not gofmt-formatted, so gofmt runs after it.
// TestGeneratedCodeIsCurrent in package flatbuffers checks that the committed
// files are what these commands produce.
package fb

// flatc writes into <-o>/<namespace>, so -o .. writes here.
//
//go:generate flatc --go --gen-object-api -o .. ../../../schema/flatbuffers/serbench.fbs
//go:generate gofmt -w .
