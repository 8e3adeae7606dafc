// Package vtprotobuf adapts github.com/planetscale/vtprotobuf: the
// MarshalVT and UnmarshalVT methods that protoc-gen-go-vtproto generates
// (features marshal+unmarshal+size) on protoc-gen-go's types in package
// codec/protobuf/pb. Conversion is package pbcodec's, as for the protobuf
// codec, so the two differ only in the encoding code.
//
// UnmarshalVT copies strings and bytes out of the input (the "unsafe"
// zero-copy variant is not generated) and checks every length against the
// input's size; it has no nesting limit of its own, but the schema's messages
// nest at most three deep.
package vtprotobuf

import (
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/protobuf/pbcodec"
)

// ID is the codec's stable ID.
const ID = "vtprotobuf"

const module = "github.com/planetscale/vtprotobuf"

// Message is what protoc-gen-go-vtproto adds to every generated message.
type Message interface {
	MarshalVT() ([]byte, error)
	UnmarshalVT(data []byte) error
	SizeVT() int
}

// New returns the vtprotobuf codec. It binds the five seed scenario
// types and the three annotation workload types, and returns an error wrapping codec.ErrUnsupported for any other. Its
// Version is that of the vtprotobuf module linked in, which is also the
// pinned protoc-gen-go-vtproto's.
func New() codec.Codec {
	return pbcodec.New(codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2024-01-29", // v0.6.0, the linked and newest version: go list -m -f {{.Time}} github.com/planetscale/vtprotobuf

		API:    codec.APITyped,
		Format: "Protocol Buffers", Kind: codec.Codegen, Binary: true,
		Options: "generated MarshalVT/UnmarshalVT (features marshal+unmarshal+size) on protoc-gen-go types; " + pbcodec.Options,
		Time:    "ns, google.protobuf.Timestamp: instant kept, UTC forced (offset and zone name lost); any year (no range check)", Default: true},
		pbcodec.Convs, Message.MarshalVT, func(data []byte, m Message) error { return m.UnmarshalVT(data) })
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
