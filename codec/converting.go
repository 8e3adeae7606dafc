package codec

import (
	"fmt"
	"reflect"
	"time"
)

// Conv converts between one source type *S (a scenario type, or the
// caller's own) and one generated type *G, with the types erased as
// Converter wants them. The zero Conv is not usable; make one with NewConv.
type Conv struct {
	src  reflect.Type // *S
	newG func() any
	to   func(v any) (any, error)
	from func(v any) (any, error)
}

// NewConv returns the Conv that converts *S to *G with to and back with
// from. Both may assume a non-nil argument; the Conv reports a nil or
// mistyped one as an error.
func NewConv[S, G any](to func(*S) *G, from func(*G) *S) Conv {
	return newConv(to, func(g *G) (*S, error) { return from(g), nil })
}

// NewConvInto is NewConv for a from that fills a new zero *S and can fail
// (a generated value the source type cannot hold): its error is
// FromNative's.
func NewConvInto[S, G any](to func(*S) *G, from func(*G, *S) error) Conv {
	return newConv(to, func(g *G) (*S, error) {
		s := new(S)
		if err := from(g, s); err != nil {
			return nil, err
		}
		return s, nil
	})
}

func newConv[S, G any](to func(*S) *G, from func(*G) (*S, error)) Conv {
	return Conv{
		src:  reflect.TypeFor[*S](),
		newG: func() any { return new(G) },
		to: func(v any) (any, error) {
			s, ok := v.(*S)
			if !ok || s == nil {
				return nil, fmt.Errorf("codec: ToNative wants a non-nil %T, got %T", (*S)(nil), v)
			}
			return to(s), nil
		},
		from: func(v any) (any, error) {
			g, ok := v.(*G)
			if !ok || g == nil {
				return nil, fmt.Errorf("codec: FromNative wants a non-nil %T, got %T", (*G)(nil), v)
			}
			return from(g)
		},
	}
}

// New returns a pointer to a new zero generated value (*G), for Unmarshal
// to decode into.
func (c Conv) New() any { return c.newG() }

// ToNative implements Converter: it converts a *S to a new *G.
func (c Conv) ToNative(v any) (any, error) { return c.to(v) }

// FromNative implements Converter: it converts a *G to a new *S.
func (c Conv) FromNative(v any) (any, error) { return c.from(v) }

// Converting is a Codec whose encoding code was generated onto types of
// its own (mirror types, protobuf messages) that implement G: Bind picks
// the Conv whose source type is the sample's, and the Binding is a
// Converter through it, so Marshal takes a value from ToNative and
// Unmarshal returns a new generated value for FromNative. Adding a codegen
// codec is its Info, the table of Convs of its generated package and the
// two functions below.
type Converting[G any] struct {
	// Meta is returned by Info.
	Meta Info
	// Convs are the types Bind accepts, one Conv per source type.
	Convs []Conv
	// Missing says why Bind refuses a type without a Conv: a format with
	// one %T verb for the sample ("no message for %T in schema/proto/...").
	// Bind's error wraps ErrUnsupported.
	Missing string
	// Marshal encodes a generated value into new bytes the caller owns.
	Marshal func(G) ([]byte, error)
	// Unmarshal decodes data into g, a new zero generated value.
	Unmarshal func(data []byte, g G) error
	// Any, when set, drives the library on untyped values for conformance
	// (UntypedDriver): generated code has no `any` of its own.
	Any *Untyped
}

var _ Codec = Converting[any]{}

// Info implements Codec.
func (c Converting[G]) Info() Info { return c.Meta }

// Bind implements Codec.
func (c Converting[G]) Bind(sample any) (Binding, error) {
	t := reflect.TypeOf(sample)
	for _, conv := range c.Convs {
		if conv.src == t {
			return &convBinding[G]{Conv: conv, c: c}, nil
		}
	}
	return nil, Unsupported(c.Meta.ID, c.Missing, sample)
}

// convBinding is the Binding and Converter of a Converting codec.
type convBinding[G any] struct {
	Conv
	c Converting[G]
}

var (
	_ Binding   = (*convBinding[any])(nil)
	_ Converter = (*convBinding[any])(nil)
)

// Marshal encodes v, a value returned by ToNative.
func (b *convBinding[G]) Marshal(v any) ([]byte, error) {
	g, ok := v.(G)
	if !ok {
		return nil, fmt.Errorf("%s: Marshal wants a generated value from ToNative, got %T", b.c.Meta.ID, v)
	}
	return b.c.Marshal(g)
}

// Unmarshal decodes data into a new generated value, which FromNative
// accepts.
func (b *convBinding[G]) Unmarshal(data []byte) (any, error) {
	v := b.New()
	g, ok := v.(G)
	if !ok {
		return nil, fmt.Errorf("%s: generated type %T lacks the codec's methods", b.c.Meta.ID, v)
	}
	if err := b.c.Unmarshal(data, g); err != nil {
		return nil, err
	}
	return v, nil
}

// Slice returns f applied to every element of in, or nil when in is nil, so
// that a conversion keeps nil and empty apart.
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

// TimeParts splits t into what the generated schemas without a time type
// carry (Cap'n Proto, Thrift, Bebop, benc): Unix seconds, nanoseconds within
// the second, and the zone's offset east of UTC in seconds. The zone name
// is not kept.
func TimeParts(t time.Time) (unixSeconds int64, nanos, offsetSeconds int32) {
	_, off := t.Zone()
	return t.Unix(), int32(t.Nanosecond()), int32(off)
}

// TimeFromParts is the inverse of TimeParts: the instant time.Unix(sec,
// nsec) in a fixed zone with the offset (an unnamed zone; UTC for offset 0).
func TimeFromParts(sec, nsec int64, offsetSeconds int32) time.Time {
	loc := time.UTC
	if offsetSeconds != 0 {
		loc = time.FixedZone("", int(offsetSeconds))
	}
	return time.Unix(sec, nsec).In(loc)
}
