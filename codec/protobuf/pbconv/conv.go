// Package pbconv converts serbench's seed scenario values (package scenario)
// to and from the Go types that Protocol Buffers generators make from
// schema/proto/serbench.proto, and builds the codec.Binding that the
// protobuf, vtprotobuf and gogoproto codecs share.
//
// Conversions are field by field. Slices and maps of scalars are shared with
// the source value, not copied; nested messages are built anew. Because
// proto3 decodes an empty repeated field or map as absent, a decoded value has
// nil where the original had an empty, non-nil slice or map.
package pbconv

import (
	"fmt"

	"github.com/serbench/serbench/codec"
)

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
				return nil, fmt.Errorf("pbconv: ToNative wants a non-nil %T, got %T", (*S)(nil), v)
			}
			return to(s), nil
		},
		from: func(v any) (any, error) {
			m, ok := v.(*M)
			if !ok || m == nil {
				return nil, fmt.Errorf("pbconv: FromNative wants a non-nil %T, got %T", (*M)(nil), v)
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

// Binding is the codec.Binding and codec.Converter of the Protocol Buffers
// codecs: Conv converts, and a pair of functions over the message interface
// I (proto.Message, or an interface of generated methods) encodes.
type Binding[I any] struct {
	Conv
	id        string
	marshal   func(I) ([]byte, error)
	unmarshal func([]byte, I) error
}

var (
	_ codec.Binding   = (*Binding[any])(nil)
	_ codec.Converter = (*Binding[any])(nil)
)

// NewBinding returns the Binding of codec id that converts with conv,
// encodes with marshal and decodes with unmarshal into conv.New(). Every
// message conv makes must implement I.
func NewBinding[I any](id string, conv Conv, marshal func(I) ([]byte, error), unmarshal func([]byte, I) error) *Binding[I] {
	return &Binding[I]{Conv: conv, id: id, marshal: marshal, unmarshal: unmarshal}
}

// Marshal encodes v, a message returned by ToNative, into new bytes.
func (b *Binding[I]) Marshal(v any) ([]byte, error) {
	m, ok := v.(I)
	if !ok {
		return nil, fmt.Errorf("%s: Marshal wants a generated message from ToNative, got %T", b.id, v)
	}
	data, err := b.marshal(m)
	if err != nil {
		return nil, fmt.Errorf("%s: marshal %T: %w", b.id, v, err)
	}
	return data, nil
}

// Unmarshal decodes data into a new message, which FromNative accepts.
func (b *Binding[I]) Unmarshal(data []byte) (any, error) {
	v := b.New()
	m, ok := v.(I)
	if !ok {
		return nil, fmt.Errorf("%s: generated type %T lacks the codec's methods", b.id, v)
	}
	if err := b.unmarshal(data, m); err != nil {
		return nil, fmt.Errorf("%s: unmarshal %d bytes into %T: %w", b.id, len(data), v, err)
	}
	return v, nil
}
