package pbcodec

import (
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/serbench/serbench/codec"
)

// Open converts between one scenario type and its open-struct message of
// package pb (Convs) and that message's bytes, for the codecs that read
// the same bytes into types of their own (hyperpb's messages, the Opaque
// API's): their ToNative is Encode and then their own unmarshal, their
// FromNative their own marshal and then Decode.
type Open struct {
	// Type is the open-struct message type of the scenario type.
	Type protoreflect.MessageType
	conv codec.Converter
	id   string
}

// BindOpen returns the Open of sample's type, or an error wrapping
// codec.ErrUnsupported, naming id, for a type Convs lacks.
func BindOpen(id string, sample any) (*Open, error) {
	b, err := New(codec.Info{ID: id}, Convs, proto.Marshal, proto.Unmarshal).Bind(sample)
	if err != nil {
		return nil, err
	}
	conv := b.(codec.Converter)
	m, err := conv.ToNative(sample) // only its type is used
	if err != nil {
		return nil, err
	}
	msg, ok := m.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("%s: %T is not a proto.Message", id, m)
	}
	return &Open{Type: msg.ProtoReflect().Type(), conv: conv, id: id}, nil
}

// Encode converts v, a value of the scenario type, to its open-struct
// message and marshals that.
func (o *Open) Encode(v any) ([]byte, error) {
	m, err := o.conv.ToNative(v)
	if err != nil {
		return nil, err
	}
	data, err := proto.Marshal(m.(proto.Message))
	if err != nil {
		return nil, fmt.Errorf("%s: convert to native: %w", o.id, err)
	}
	return data, nil
}

// Decode unmarshals data into a new open-struct message and converts that
// to the scenario type.
func (o *Open) Decode(data []byte) (any, error) {
	m := o.Type.New().Interface()
	if err := proto.Unmarshal(data, m); err != nil {
		return nil, fmt.Errorf("%s: convert from native: %w", o.id, err)
	}
	return o.FromMessage(m)
}

// FromMessage converts m, an open-struct message of Type, to the scenario
// type.
func (o *Open) FromMessage(m proto.Message) (any, error) { return o.conv.FromNative(m) }
