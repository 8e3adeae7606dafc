//go:build amd64 || arm64

package hyperpb

import (
	"fmt"

	"buf.build/go/hyperpb"
	"google.golang.org/protobuf/proto"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/protobuf/pbcodec"
)

// New returns the hyperpb codec. It binds the types codec/protobuf binds
// (the seed scenarios and the annotation workloads) and returns an error
// wrapping codec.ErrUnsupported for any other.
func New() codec.Codec { return parser{} }

type parser struct{}

func (parser) Info() codec.Info { return info() }

// Bind compiles the descriptor of the generated message of sample's type.
func (parser) Bind(sample any) (b codec.Binding, err error) {
	defer codec.RecoverEncode(&err, ID, sample)
	o, err := pbcodec.BindOpen(ID, sample)
	if err != nil {
		return nil, err
	}
	return &binding{open: o, ty: hyperpb.CompileMessageDescriptor(o.Type.Descriptor())}, nil
}

type binding struct {
	open *pbcodec.Open
	ty   *hyperpb.MessageType
}

var (
	_ codec.Binding   = (*binding)(nil)
	_ codec.Converter = (*binding)(nil)
)

// ToNative converts v to the generated message, marshals it and parses
// the bytes into a new hyperpb message.
func (b *binding) ToNative(v any) (any, error) {
	data, err := b.open.Encode(v)
	if err != nil {
		return nil, err
	}
	return b.Unmarshal(data)
}

// FromNative copies v, a hyperpb message, into a new generated message
// (proto.Merge: the same descriptor) and converts that to the scenario
// type.
func (b *binding) FromNative(v any) (out any, err error) {
	defer codec.RecoverEncode(&err, ID, v)
	m, ok := v.(*hyperpb.Message)
	if !ok || m == nil {
		return nil, fmt.Errorf("%s: FromNative wants a non-nil *hyperpb.Message, got %T", ID, v)
	}
	g := b.open.Type.New().Interface()
	proto.Merge(g, m)
	return b.open.FromMessage(g)
}

// Marshal encodes v, a hyperpb message from ToNative, with proto.Marshal.
func (b *binding) Marshal(v any) (data []byte, err error) {
	defer codec.RecoverEncode(&err, ID, v)
	m, ok := v.(*hyperpb.Message)
	if !ok || m == nil {
		return nil, fmt.Errorf("%s: Marshal wants a non-nil *hyperpb.Message from ToNative, got %T", ID, v)
	}
	if data, err = proto.Marshal(m); err != nil {
		return nil, fmt.Errorf("%s: marshal: %w", ID, err)
	}
	return data, nil
}

// Unmarshal parses data into a new hyperpb message.
func (b *binding) Unmarshal(data []byte) (out any, err error) {
	defer codec.RecoverDecode(&err, ID, data)
	m := hyperpb.NewMessage(b.ty)
	if err := m.Unmarshal(data); err != nil {
		return nil, fmt.Errorf("%s: unmarshal %d bytes: %w", ID, len(data), err)
	}
	return m, nil
}
