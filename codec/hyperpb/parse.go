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
	return &Binding{ID: ID, Type: hyperpb.CompileMessageDescriptor(o.Type.Descriptor()), Encode: o.Encode,
		Decode: func(m *hyperpb.Message) (any, error) {
			// proto.Merge copies the message into a generated one (the
			// same descriptor), which converts to the scenario type.
			g := o.Type.New().Interface()
			proto.Merge(g, m)
			return o.FromMessage(g)
		}}, nil
}

// Binding is a codec.Converter whose native values are messages of a
// compiled hyperpb type: ToNative encodes a Go value (Encode) and parses
// the bytes into a new message, FromNative converts a message back
// (Decode), Marshal is proto.Marshal over a message (hyperpb has no
// encoder) and Unmarshal is hyperpb's parser. Package derive uses it for
// a type's derived descriptor. Errors are prefixed with ID.
type Binding struct {
	ID     string
	Type   *hyperpb.MessageType
	Encode func(v any) ([]byte, error)
	Decode func(m *hyperpb.Message) (any, error)
}

var (
	_ codec.Binding   = (*Binding)(nil)
	_ codec.Converter = (*Binding)(nil)
)

// ToNative encodes v and parses the bytes into a new hyperpb message.
func (b *Binding) ToNative(v any) (any, error) {
	data, err := b.Encode(v)
	if err != nil {
		return nil, err
	}
	return b.Unmarshal(data)
}

// FromNative converts v, a hyperpb message, with Decode.
func (b *Binding) FromNative(v any) (out any, err error) {
	defer codec.RecoverEncode(&err, b.ID, v)
	m, ok := v.(*hyperpb.Message)
	if !ok || m == nil {
		return nil, fmt.Errorf("%s: FromNative wants a non-nil *hyperpb.Message, got %T", b.ID, v)
	}
	return b.Decode(m)
}

// Marshal encodes v, a hyperpb message from ToNative, with proto.Marshal.
func (b *Binding) Marshal(v any) (data []byte, err error) {
	defer codec.RecoverEncode(&err, b.ID, v)
	m, ok := v.(*hyperpb.Message)
	if !ok || m == nil {
		return nil, fmt.Errorf("%s: Marshal wants a non-nil *hyperpb.Message from ToNative, got %T", b.ID, v)
	}
	if data, err = proto.Marshal(m); err != nil {
		return nil, fmt.Errorf("%s: marshal: %w", b.ID, err)
	}
	return data, nil
}

// Unmarshal parses data into a new hyperpb message.
func (b *Binding) Unmarshal(data []byte) (out any, err error) {
	defer codec.RecoverDecode(&err, b.ID, data)
	m := hyperpb.NewMessage(b.Type)
	if err := m.Unmarshal(data); err != nil {
		return nil, fmt.Errorf("%s: unmarshal %d bytes: %w", b.ID, len(data), err)
	}
	return m, nil
}
