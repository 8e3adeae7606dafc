// Package fbv1 is the Go code that flatc, the FlatBuffers compiler,
// generates from schema/flatbuffers/evolve/order_v1.fbs: version v1 of the
// order type of package evolve. Every other file of this folder is
// generated (flatc 2.0.8, Debian's flatbuffers-compiler, then gofmt);
// TestFlatBuffersGenerated in package evolve checks that the committed
// files are what these commands produce.
package fbv1

// flatc writes into <-o>/<namespace>, so -o .. writes here.
//
//go:generate flatc --go -o .. ../../schema/flatbuffers/evolve/order_v1.fbs
//go:generate gofmt -w .
