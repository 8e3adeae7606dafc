// Package gogoproto adapts github.com/gogo/protobuf: the Marshal and
// Unmarshal methods that protoc-gen-gogofaster generates from
// schema/proto/serbench.proto into package gogopb, with
// google.protobuf.Timestamp as gogo's types.Timestamp. gogofaster turns on
// gogo's marshaler, unmarshaler and sizer and drops the XXX_unrecognized and
// XXX_sizecache fields. convert_gen.go, generated from the template that
// also makes package pbcodec's conversions, converts scenario values.
//
// The generated Unmarshal copies strings out of the input and checks every
// length against the input's size; it has no nesting limit of its own, but
// the schema's messages nest at most three deep.
package gogoproto

//go:generate go run github.com/serbench/serbench/internal/gencheck/generate gogoproto-convert

import (
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/protobuf/pbcodec"
)

// ID is the codec's stable ID.
const ID = "gogoproto"

const module = "github.com/gogo/protobuf"

// Message is what protoc-gen-gogofaster generates on every message.
type Message interface {
	Marshal() ([]byte, error)
	Unmarshal(data []byte) error
	Size() int
}

// New returns the gogoproto codec. It binds the five seed scenario
// types and the three annotation workload types, and returns an error wrapping codec.ErrUnsupported for any other. Its
// Version is that of the gogo/protobuf module linked in, which is also the
// pinned protoc-gen-gogofaster's.
func New() codec.Codec {
	return pbcodec.New(codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2021-01-10", // v1.3.2, the linked and newest version: go list -m -f {{.Time}} github.com/gogo/protobuf
		Archived:    true,         // deprecated upstream (Status)

		API:    codec.APITyped,
		Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
		Format: "Protocol Buffers", Kind: codec.Codegen, Binary: true,
		Options: "gogofaster generated Marshal/Unmarshal; Timestamp as gogo types.Timestamp; " + pbcodec.Options,
		Time:    "ns, google.protobuf.Timestamp: instant kept, UTC forced (offset and zone name lost); any year (no range check)",
		Status:  "unmaintained: upstream marked it deprecated in 2022 (gogo/protobuf issue 691); no APIv2 support"},
		convs, Message.Marshal, func(data []byte, m Message) error { return m.Unmarshal(data) })
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
