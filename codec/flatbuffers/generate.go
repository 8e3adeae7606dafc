package flatbuffers

// Package fb is generated from the schema by flatc, the FlatBuffers compiler
// (Debian package flatbuffers-compiler 2.0.8, matching the Go runtime module
// github.com/google/flatbuffers v2.0.8+incompatible), with the object API
// (the *T types and their Pack and UnPack methods). flatc's Go output is not
// gofmt-formatted, so gofmt runs after it. TestGeneratedCodeIsCurrent checks
// that the committed files are what these commands produce.
//
//go:generate flatc --go --gen-object-api -o . ../../schema/flatbuffers/serbench.fbs
//go:generate gofmt -w fb
