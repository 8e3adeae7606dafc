// Package protobuf adapts google.golang.org/protobuf: proto.Marshal and
// proto.Unmarshal with default options on the types protoc-gen-go generates
// from schema/proto/serbench.proto (package pb). Scenario values are
// converted to those types by package pbcodec, outside the timed loop.
//
// proto.Unmarshal reads untrusted input within the library's own limits:
// messages nest at most protowire.DefaultRecursionLimit (10000) deep, and
// every length is checked against the input's size before it is used.
package protobuf

import (
	"google.golang.org/protobuf/proto"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/protobuf/pbcodec"
)

// ID is the codec's stable ID.
const ID = "protobuf"

const module = "google.golang.org/protobuf"

// New returns the protobuf codec. It binds the five seed scenario types and the three
// annotation workload types, and returns an error wrapping codec.ErrUnsupported for any other.
func New() codec.Codec {
	return pbcodec.New(codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2026-08-10", // v1.36.12, the linked and newest version: go list -m -f {{.Time}} google.golang.org/protobuf

		API:    codec.APITyped,
		Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
		Format: "Protocol Buffers", Kind: codec.Codegen, Binary: true,
		Options: "protoc-gen-go types; proto.Marshal/proto.Unmarshal with default options; " + pbcodec.Options,
		Time:    "ns, google.protobuf.Timestamp: instant kept, UTC forced (offset and zone name lost); any year (no range check)", Default: true},
		pbcodec.Convs, proto.Marshal, proto.Unmarshal)
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
