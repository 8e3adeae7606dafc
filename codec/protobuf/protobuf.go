// Package protobuf adapts google.golang.org/protobuf: proto.Marshal and
// proto.Unmarshal with default options on the types protoc-gen-go generates
// from schema/proto/serbench.proto (package pb). Scenario values are
// converted to those types by package pbconv, outside the timed loop.
//
// proto.Unmarshal reads untrusted input within the library's own limits:
// messages nest at most protowire.DefaultRecursionLimit (10000) deep, and
// every length is checked against the input's size before it is used.
package protobuf

import (
	"google.golang.org/protobuf/proto"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/protobuf/pbconv"
)

// ID is the codec's stable ID.
const ID = "protobuf"

const module = "google.golang.org/protobuf"

// Options is the Options text of the Protocol Buffers codecs' Info: the
// schema and its time mapping, which every one of them shares.
const Options = "schema/proto/serbench.proto (proto3); time.Time as google.protobuf.Timestamp " +
	"(instant kept, zone offset dropped); empty repeated fields and maps decode as nil"

// Codec is the protobuf codec. Its zero value is ready to use.
type Codec struct{}

var _ codec.Codec = Codec{}

// New returns the protobuf codec.
func New() codec.Codec { return Codec{} }

// Info implements codec.Codec.
func (Codec) Info() codec.Info {
	return codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		Format: "Protocol Buffers", Kind: codec.Codegen, Binary: true,
		Options: "protoc-gen-go types; proto.Marshal/proto.Unmarshal with default options; " + Options}
}

// Bind implements codec.Codec. It supports the five seed scenario types and
// returns an error wrapping codec.ErrUnsupported for any other.
func (Codec) Bind(sample any) (codec.Binding, error) {
	conv, ok := pbconv.For(sample)
	if !ok {
		return nil, codec.Unsupported(ID, "no message for %T in schema/proto/serbench.proto", sample)
	}
	return pbconv.NewBinding(ID, conv, proto.Marshal, proto.Unmarshal), nil
}
