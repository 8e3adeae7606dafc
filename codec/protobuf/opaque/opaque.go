// Package opaque adapts google.golang.org/protobuf on the types
// protoc-gen-go generates with the Opaque API (package
// codec/protobuf/opaquepb), beside codec/protobuf's open-struct types. It
// is a package of its own so that programs linking the default set
// (codec/protobuf) do not register the opaque messages.
package opaque

import (
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/serbench/serbench/codec"
	_ "github.com/serbench/serbench/codec/protobuf/opaquepb" // registers the serbench.opaque messages
	"github.com/serbench/serbench/codec/protobuf/pbcodec"
)

// ID is the codec's stable ID: a variant of the protobuf codec.
const ID = "protobuf/opaque"

const module = "google.golang.org/protobuf"

// opaquePackage is the proto package of package opaquepb's messages.
const opaquePackage = "serbench.opaque"

// New returns proto.Marshal and proto.Unmarshal, with default
// options, on the types protoc-gen-go generates with the Opaque API
// (package opaquepb: default_api_level=API_OPAQUE, from the same schema in
// proto package serbench.opaque, so the same bytes as codec/protobuf's). It
// binds the types codec/protobuf binds.
//
// Every field of message type is marked [lazy = true], the Opaque API's
// lazy decoding: Unmarshal leaves such a field's bytes undecoded until it
// is read, which FromNative does, so part of the decoding moves from the
// unmarshal row to the convert row.
//
// Its conversion goes through the wire: ToNative converts to package pb's
// open-struct message, marshals it and unmarshals the bytes into the
// opaque message; FromNative the other way round. The convert row
// therefore holds a marshal and an unmarshal besides the conversion, and
// is not comparable with the protobuf row's; marshal and unmarshal are the
// Opaque API's alone.
func New() codec.Codec { return opaque{} }

type opaque struct{}

func (opaque) Info() codec.Info {
	return codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2026-08-10", // v1.36.12, the linked and newest version: go list -m -f {{.Time}} google.golang.org/protobuf

		API:    codec.APITyped,
		Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
		Format: "Protocol Buffers", Kind: codec.Codegen, Binary: true,
		Options: "protoc-gen-go Opaque API types (default_api_level=API_OPAQUE, proto3) with every message field [lazy = true]: unmarshal leaves them undecoded until read (in convert); proto.Marshal/proto.Unmarshal with default options; " +
			"converted through the open-struct types and the wire (convert not comparable with protobuf's); " + pbcodec.Options,
		Time: "ns, google.protobuf.Timestamp: instant kept, UTC forced (offset and zone name lost); any year (no range check)"}
}

// Bind finds the opaque message of sample's type: package pb's message of
// the same name in proto package serbench.opaque.
func (opaque) Bind(sample any) (codec.Binding, error) {
	o, err := pbcodec.BindOpen(ID, sample)
	if err != nil {
		return nil, err
	}
	name := protoreflect.FullName(opaquePackage).Append(o.Type.Descriptor().Name())
	opaqueType, err := protoregistry.GlobalTypes.FindMessageByName(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", ID, name, err)
	}
	return &opaqueBinding{open: o, opaque: opaqueType}, nil
}

type opaqueBinding struct {
	open   *pbcodec.Open
	opaque protoreflect.MessageType
}

var (
	_ codec.Binding   = (*opaqueBinding)(nil)
	_ codec.Converter = (*opaqueBinding)(nil)
)

// ToNative converts v to the open-struct message and from its bytes to a
// new opaque message.
func (b *opaqueBinding) ToNative(v any) (any, error) {
	data, err := b.open.Encode(v)
	if err != nil {
		return nil, err
	}
	return b.Unmarshal(data)
}

// FromNative converts v, an opaque message, to the open-struct message
// through its bytes, and that to the scenario type.
func (b *opaqueBinding) FromNative(v any) (any, error) {
	data, err := b.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%s: convert from native: %w", ID, err)
	}
	return b.open.Decode(data)
}

// Marshal encodes v, an opaque message from ToNative.
func (b *opaqueBinding) Marshal(v any) ([]byte, error) {
	m, ok := v.(proto.Message)
	if !ok || m.ProtoReflect().Type() != b.opaque {
		return nil, fmt.Errorf("%s: Marshal wants a %s from ToNative, got %T", ID, b.opaque.Descriptor().FullName(), v)
	}
	data, err := proto.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("%s: marshal %T: %w", ID, m, err)
	}
	return data, nil
}

// Unmarshal decodes data into a new opaque message.
func (b *opaqueBinding) Unmarshal(data []byte) (any, error) {
	m := b.opaque.New().Interface()
	if err := proto.Unmarshal(data, m); err != nil {
		return nil, fmt.Errorf("%s: unmarshal %d bytes into %T: %w", ID, len(data), m, err)
	}
	return m, nil
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
