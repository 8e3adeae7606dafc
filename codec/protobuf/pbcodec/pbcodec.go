// Package pbcodec holds what the Protocol Buffers codecs (protobuf,
// vtprotobuf, gogoproto) share: Codec, built from a message interface and a
// pair of encoding functions the way codec.Funcs is built for reflection
// codecs, and Conv, the conversion between a seed scenario value (package
// scenario) and a generated message, which a Codec's Binding offers as a
// codec.Converter.
//
// The conversions themselves are generated from one template
// (internal/gencheck/convert.go.tmpl), once per package of generated types:
// convert_gen.go here for protoc-gen-go's types in package pb, used by
// protobuf and vtprotobuf; codec/gogoproto/convert_gen.go for gogofaster's.
// They copy field by field. Slices and maps of scalars are shared with the
// source value, not copied; nested messages are built anew. Because proto3
// decodes an empty repeated field or map as absent, a decoded value has nil
// where the original had an empty, non-nil slice or map. time.Time becomes a
// Timestamp holding its instant; a decoded time is in UTC.
package pbcodec

//go:generate go run github.com/serbench/serbench/internal/gencheck/generate protobuf-convert

import (
	"fmt"

	"github.com/serbench/serbench/codec"
)

// Options is the part of Info.Options that every Protocol Buffers codec
// shares: the schema and what it does to the data.
const Options = "schema/proto/serbench.proto (proto3); time.Time as google.protobuf.Timestamp " +
	"(instant kept, zone offset dropped); empty repeated fields and maps decode as nil"

// Codec is a Protocol Buffers codec over generated messages that implement
// the interface I (proto.Message, or the methods a generator adds).
type Codec[I any] struct {
	// Meta is returned by Info.
	Meta codec.Info
	// For picks the Conv for a sample's type; false means no schema for it.
	For func(sample any) (Conv, bool)
	// Marshal encodes a message.
	Marshal func(I) ([]byte, error)
	// Unmarshal decodes data into a new, empty message.
	Unmarshal func(data []byte, m I) error
}

var _ codec.Codec = Codec[any]{}

// Info implements codec.Codec.
func (c Codec[I]) Info() codec.Info { return c.Meta }

// Bind implements codec.Codec. For a type the schema has no message for, it
// returns an error wrapping codec.ErrUnsupported. The Binding is also a
// codec.Converter.
func (c Codec[I]) Bind(sample any) (codec.Binding, error) {
	conv, ok := c.For(sample)
	if !ok {
		return nil, codec.Unsupported(c.Meta.ID, "no message for %T in schema/proto/serbench.proto", sample)
	}
	return &binding[I]{Conv: conv, c: c}, nil
}

// Conv converts between one scenario type (*S) and one generated message
// type (*M) with the types erased, as codec.Converter wants them. The zero
// Conv is not usable; make one with NewConv.
type Conv struct {
	newMsg func() any
	to     func(v any) (any, error)
	from   func(v any) (any, error)
}

// NewConv returns the Conv that converts *S to *M with to and back with
// from. Both may assume a non-nil argument.
func NewConv[S, M any](to func(*S) *M, from func(*M) *S) Conv {
	return Conv{
		newMsg: func() any { return new(M) },
		to: func(v any) (any, error) {
			s, ok := v.(*S)
			if !ok || s == nil {
				return nil, fmt.Errorf("pbcodec: ToNative wants a non-nil %T, got %T", (*S)(nil), v)
			}
			return to(s), nil
		},
		from: func(v any) (any, error) {
			m, ok := v.(*M)
			if !ok || m == nil {
				return nil, fmt.Errorf("pbcodec: FromNative wants a non-nil %T, got %T", (*M)(nil), v)
			}
			return from(m), nil
		},
	}
}

// New returns a pointer to a new, empty generated message (*M).
func (c Conv) New() any { return c.newMsg() }

// ToNative implements codec.Converter: it converts a *S to a new *M.
func (c Conv) ToNative(v any) (any, error) { return c.to(v) }

// FromNative implements codec.Converter: it converts a *M to a new *S.
func (c Conv) FromNative(v any) (any, error) { return c.from(v) }

// Slice returns f applied to every element of in, or nil when in is nil.
func Slice[A, B any](in []A, f func(A) B) []B {
	if in == nil {
		return nil
	}
	out := make([]B, len(in))
	for i, a := range in {
		out[i] = f(a)
	}
	return out
}

// binding is the codec.Binding and codec.Converter of a Codec.
type binding[I any] struct {
	Conv
	c Codec[I]
}

var (
	_ codec.Binding   = (*binding[any])(nil)
	_ codec.Converter = (*binding[any])(nil)
)

// Marshal encodes v, a message returned by ToNative, into new bytes.
func (b *binding[I]) Marshal(v any) ([]byte, error) {
	m, ok := v.(I)
	if !ok {
		return nil, fmt.Errorf("%s: Marshal wants a generated message from ToNative, got %T", b.c.Meta.ID, v)
	}
	data, err := b.c.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("%s: marshal %T: %w", b.c.Meta.ID, v, err)
	}
	return data, nil
}

// Unmarshal decodes data into a new message, which FromNative accepts.
func (b *binding[I]) Unmarshal(data []byte) (any, error) {
	v := b.New()
	m, ok := v.(I)
	if !ok {
		return nil, fmt.Errorf("%s: generated type %T lacks the codec's methods", b.c.Meta.ID, v)
	}
	if err := b.c.Unmarshal(data, m); err != nil {
		return nil, fmt.Errorf("%s: unmarshal %d bytes into %T: %w", b.c.Meta.ID, len(data), v, err)
	}
	return v, nil
}
