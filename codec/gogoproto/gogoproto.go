// Package gogoproto adapts github.com/gogo/protobuf: the Marshal and
// Unmarshal methods that protoc-gen-gogofaster generates from
// schema/proto/serbench.proto into package gogopb, with
// google.protobuf.Timestamp as gogo's types.Timestamp. gogofaster turns on
// gogo's marshaler, unmarshaler and sizer and drops the XXX_unrecognized and
// XXX_sizecache fields.
//
// The generated Unmarshal copies strings out of the input and checks every
// length against the input's size; it has no nesting limit of its own, but
// the schema's messages nest at most three deep.
package gogoproto

import (
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/protobuf"
	"github.com/serbench/serbench/codec/protobuf/pbconv"
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

// Codec is the gogoproto codec. Its zero value is ready to use.
type Codec struct{}

var _ codec.Codec = Codec{}

// New returns the gogoproto codec.
func New() codec.Codec { return Codec{} }

// Info implements codec.Codec. Version is the version of the gogo/protobuf
// module linked in, which is also the pinned protoc-gen-gogofaster's.
func (Codec) Info() codec.Info {
	return codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		Format: "Protocol Buffers", Kind: codec.Codegen, Binary: true,
		Options: "gogofaster generated Marshal/Unmarshal; Timestamp as gogo types.Timestamp; " + protobuf.Options}
}

// Bind implements codec.Codec. It supports the five seed scenario types and
// returns an error wrapping codec.ErrUnsupported for any other.
func (Codec) Bind(sample any) (codec.Binding, error) {
	conv, ok := convFor(sample)
	if !ok {
		return nil, codec.Unsupported(ID, "no message for %T in schema/proto/serbench.proto", sample)
	}
	return pbconv.NewBinding(ID, conv, Message.Marshal, func(data []byte, m Message) error { return m.Unmarshal(data) }), nil
}
