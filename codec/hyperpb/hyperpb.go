// Package hyperpb adapts buf.build/go/hyperpb, a Protocol Buffers parser
// that compiles a message descriptor at run time into a parsing program
// and decodes into its own read-only messages, with no generated code. Its
// descriptors are those of the seed scenario types' protoc-gen-go messages
// (codec/protobuf/pb, from schema/proto/serbench.proto), so it reads and
// writes the protobuf row's bytes.
//
// hyperpb has no encoder and its messages cannot be set: the Binding's
// ToNative converts a scenario value to the generated message, marshals it
// and parses the bytes into a hyperpb message (all timed as convert, not
// marshal); Marshal is proto.Marshal over that message, protobuf-go's
// reflection path, as a hyperpb user re-encoding a message has it;
// Unmarshal is hyperpb's own parser with its default options (no aliasing
// of the input, UTF-8 checked, at most 4 decode misses before its slow
// path); FromNative copies the message into a generated one (proto.Merge,
// reflection) and converts that.
//
// hyperpb builds on amd64 and arm64 only (its README, "Supported
// Targets"); elsewhere New's Bind refuses every type (hyperpb_other.go).
package hyperpb

import (
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/protobuf/pbcodec"
)

// ID is the codec's stable ID.
const ID = "hyperpb"

const module = "buf.build/go/hyperpb"

func info() codec.Info {
	return codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2025-09-24", // v0.1.3, the linked and newest version: go list -m -f {{.Time}} buf.build/go/hyperpb

		API:    codec.APITyped,
		Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
		Format: "Protocol Buffers", Kind: codec.Reflect, Binary: true,
		Options: "hyperpb.CompileMessageDescriptor on the protoc-gen-go messages' descriptors at Bind; Message.Unmarshal with default options; " +
			"marshal is proto.Marshal over hyperpb's read-only message (hyperpb has no encoder); " + pbcodec.Options,
		Time: "ns, google.protobuf.Timestamp: instant kept, UTC forced (offset and zone name lost); any year (no range check)"}
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
