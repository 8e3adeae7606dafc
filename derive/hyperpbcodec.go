//go:build amd64 || arm64

package derive

import (
	"fmt"
	"reflect"

	"buf.build/go/hyperpb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/serbench/serbench/codec"
)

// NewHyperpbCodec returns the codec "hyperpb/derived": buf's hyperpb
// parser compiled at Bind from the descriptor DeriveProto derives from the
// sample's type, so a user's type goes through hyperpb with no .proto
// written and no code generated. hyperpb only parses: marshal is
// proto.Marshal over the parsed (read-only) message, as for the hyperpb
// row of serbench's own types. Its Bindings are codec.Converters: convert
// is the Go value to a dynamicpb.Message (as protobuf/derived's), its
// encoding and the parse into a hyperpb message, and back the fields read
// from the hyperpb message into a new Go value. Bind refuses a type
// DeriveProto cannot map (codec.ErrUnsupported). hyperpb builds on amd64
// and arm64 only; elsewhere Bind refuses every type.
func NewHyperpbCodec() codec.Codec { return hyperpbCodec{} }

type hyperpbCodec struct{}

var _ codec.Codec = hyperpbCodec{}

func (hyperpbCodec) Info() codec.Info { return hyperpbInfo() }

func (hyperpbCodec) Bind(sample any) (codec.Binding, error) {
	t, ps, err := deriveSample(HyperpbID, sample)
	if err != nil {
		return nil, err
	}
	root := newMsgConv(ps.root, ps.File, map[*msg]*msgConv{})
	ty := hyperpb.CompileMessageDescriptor(root.desc)
	enc := &protoBinding{id: HyperpbID, goT: t, root: root,
		newMsg:  func() proto.Message { return dynamicpb.NewMessage(root.desc) },
		marshal: proto.Marshal, unmarshal: proto.Unmarshal}
	return &hyperpbBinding{enc: enc, ty: ty}, nil
}

type hyperpbBinding struct {
	enc *protoBinding // the Go value to a dynamicpb message and its bytes
	ty  *hyperpb.MessageType
}

var (
	_ codec.Binding   = (*hyperpbBinding)(nil)
	_ codec.Converter = (*hyperpbBinding)(nil)
)

// ToNative converts a *T to a dynamicpb message, encodes it and parses the
// bytes into a new hyperpb message.
func (b *hyperpbBinding) ToNative(v any) (any, error) {
	m, err := b.enc.ToNative(v)
	if err != nil {
		return nil, err
	}
	data, err := b.enc.Marshal(m)
	if err != nil {
		return nil, err
	}
	return b.Unmarshal(data)
}

// FromNative reads a hyperpb message into a new *T.
func (b *hyperpbBinding) FromNative(v any) (_ any, err error) {
	defer codec.RecoverEncode(&err, HyperpbID, v)
	m, ok := v.(*hyperpb.Message)
	if !ok || m == nil {
		return nil, fmt.Errorf("%s: FromNative wants a non-nil *hyperpb.Message, got %T", HyperpbID, v)
	}
	out := reflect.New(b.enc.goT)
	if err := b.enc.root.fromPB(m.ProtoReflect(), out.Elem()); err != nil {
		return nil, fmt.Errorf("%s: %w", HyperpbID, err)
	}
	return out.Interface(), nil
}

// Marshal encodes a hyperpb message from ToNative with proto.Marshal.
func (b *hyperpbBinding) Marshal(v any) (data []byte, err error) {
	defer codec.RecoverEncode(&err, HyperpbID, v)
	m, ok := v.(*hyperpb.Message)
	if !ok || m == nil {
		return nil, fmt.Errorf("%s: Marshal wants a non-nil *hyperpb.Message from ToNative, got %T", HyperpbID, v)
	}
	return proto.Marshal(m)
}

// Unmarshal parses data into a new hyperpb message.
func (b *hyperpbBinding) Unmarshal(data []byte) (_ any, err error) {
	defer codec.RecoverDecode(&err, HyperpbID, data)
	m := hyperpb.NewMessage(b.ty)
	if err := m.Unmarshal(data); err != nil {
		return nil, fmt.Errorf("%s: unmarshal %d bytes: %w", HyperpbID, len(data), err)
	}
	return m, nil
}
