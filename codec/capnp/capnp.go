// Package capnp adapts capnproto.org/go/capnp/v3, the Go implementation of
// Cap'n Proto, with accessors that capnpc-go generated from
// schema/capnp/serbench.capnp into package capnpb.
//
// Cap'n Proto's generated types are views over a message's bytes, not Go
// values: writing one is setting its fields into a message, which is the
// encoding work itself. So Marshal takes the scenario value and builds a
// new message from it (capnp.NewMessage over a pooled single-segment
// arena, setting every field through the generated setters, convert.go),
// then copies it out with Message.Marshal (unpacked framing) and releases
// the arena to the library's pool. There is no ToNative step to move out
// of the timed loop: what protobuf's ToNative does (copy into the
// generated type) and its Marshal does (write bytes) are one here.
//
// The two codecs encode the same bytes and differ in what Unmarshal does:
//
//   - "capnp" materialises: Unmarshal reads the message (capnp.Unmarshal,
//     which reads in place) and copies every field into a new scenario
//     value, as the other codecs build a Go value. Its Binding is not a
//     codec.Converter.
//   - "capnp/lazy" reads in place: Unmarshal reads every field through the
//     generated accessors without copying (Text as a byte slice of the
//     input) and returns the root struct accessor (capnpb.UserProfile, ...),
//     which refers to the input bytes. Its Binding is a codec.Converter:
//     ToNative returns the scenario value as it is, FromNative copies the
//     root struct into a new scenario value, like "capnp"'s Unmarshal (and
//     passes a scenario value through, so its convert row times nothing).
//
// Malformed input is bounded by the library: every pointer is checked
// against its segment, and a message's reads are capped by its traversal
// limit and depth limit (64). The library's default traversal limit is 64
// MiB whatever the message, so a message whose lists point many times at
// one object (Cap'n Proto's amplification attack, capnproto.org/encoding.html)
// could read as 64 MiB from a few hundred bytes; both codecs set it to
// TraverseFactor times the message size plus TraverseSlack instead
// (Message.ResetReadLimit), which every message read once fits (capnp/lazy
// reads it twice: Unmarshal, then FromNative). Past it an accessor returns
// the library's "read traversal limit reached" error, which Unmarshal and
// FromNative return wrapped.
package capnp

import (
	"fmt"

	capnp "capnproto.org/go/capnp/v3"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/capnp/capnpb"
	"github.com/serbench/serbench/scenario"
)

//go:generate sh -c "cd ../../schema/capnp && capnp compile -I \"$(go list -m -f '{{.Dir}}' capnproto.org/go/capnp/v3)/std\" -o\"$(go tool -n capnpc-go)\":../../codec/capnp/capnpb serbench.capnp"

// IDs of the two codecs.
const (
	ID     = "capnp"
	LazyID = "capnp/lazy"
)

const module = "capnproto.org/go/capnp/v3"

// timeWords says what a time.Time keeps (convert.go).
const timeWords = "ns, offset kept (zone name lost)"

type capnpCodec struct{ lazy bool }

// New returns the "capnp" codec, whose Unmarshal copies every field into a
// new scenario value. Bind returns an error wrapping codec.ErrUnsupported
// for every type but the five seed scenarios.
func New() codec.Codec { return capnpCodec{} }

// NewLazy returns the "capnp/lazy" codec, whose Unmarshal reads every field
// in place and returns the root struct accessor. Bind returns an error
// wrapping codec.ErrUnsupported for every type but the five seed scenarios.
func NewLazy() codec.Codec { return capnpCodec{lazy: true} }

// Info implements codec.Codec.
func (c capnpCodec) Info() codec.Info {
	i := codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2025-10-24", // v3.1.0-alpha.2, the linked and newest version: go list -m -f {{.Time}} capnproto.org/go/capnp/v3

		API:    codec.APITyped,
		Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
		Format: "Cap'n Proto", Kind: codec.Codegen, Binary: true, Time: timeWords,
		Options: "capnpc-go accessors (schema/capnp/serbench.capnp, capnp 0.9.2); Marshal builds a new message on a pooled single-segment arena " +
			"and copies it out unpacked (Message.Marshal); Unmarshal copies every field into a new Go value; " +
			"time as Unix s + ns + offset (zone name lost); maps as key-sorted lists",
		Status: "no stable v3 release: pinned to v3.1.0-alpha.2, whose dependencies the module proxy serves " +
			"(v3.0.0-alpha.30 needs zenhack.net/go/util, which it does not)"}
	if c.lazy {
		i.ID = LazyID
		i.ZeroCopy = true
		i.Options = "capnpc-go accessors (schema/capnp/serbench.capnp, capnp 0.9.2); Marshal as capnp; " +
			"Unmarshal reads every field in place (zero-copy) and returns the root struct, copied into a Go value only in FromNative; " +
			"time as Unix s + ns + offset (zone name lost); maps as key-sorted lists"
	}
	return i
}

// Bind implements codec.Codec.
func (c capnpCodec) Bind(sample any) (codec.Binding, error) {
	id := c.Info().ID
	switch sample.(type) {
	case *scenario.SSEEvent:
		return newBinding(id, c.lazy, buildSSE, capnpb.ReadRootSSEEvent, readSSE, touchSSE), nil
	case *scenario.UserEvent:
		return newBinding(id, c.lazy, buildUserEvent, capnpb.ReadRootUserEvent, readUserEvent, touchUserEvent), nil
	case *scenario.WSMessage:
		return newBinding(id, c.lazy, buildWS, capnpb.ReadRootWSMessage, readWS, touchWS), nil
	case *scenario.Annotation:
		return newBinding(id, c.lazy, buildAnnotation, capnpb.ReadRootAnnotation, readAnnotation, touchAnnotation), nil
	case *scenario.UserProfile:
		return newBinding(id, c.lazy, buildProfile, capnpb.ReadRootUserProfile, readProfile, touchProfile), nil
	}
	return nil, codec.Unsupported(id, "no struct for %T in schema/capnp/serbench.capnp (only the five seed scenarios have one)", sample)
}

// newBinding returns the Binding of scenario type S, whose root struct
// accessor is R: the lazy one is a codec.Converter, the other not.
func newBinding[S, R any](id string, lazy bool,
	build func(*capnp.Segment, *S) error, root func(*capnp.Message) (R, error),
	read func(R) (*S, error), touch func(R) (uint64, error),
) codec.Binding {
	b := &binding[S, R]{id: id, build: build, root: root, read: read}
	if lazy {
		return &lazyBinding[S, R]{binding: b, touch: touch}
	}
	return b
}

// binding encodes scenario type S through root struct accessor R.
type binding[S, R any] struct {
	id    string
	build func(*capnp.Segment, *S) error
	root  func(*capnp.Message) (R, error)
	read  func(R) (*S, error)
}

// Marshal builds a message from v, a *S, and returns its unpacked bytes.
func (b *binding[S, R]) Marshal(v any) ([]byte, error) {
	s, ok := v.(*S)
	if !ok || s == nil {
		return nil, fmt.Errorf("%s: Marshal wants a non-nil %T, got %T", b.id, (*S)(nil), v)
	}
	msg, seg, err := capnp.NewMessage(capnp.SingleSegment(nil))
	if err != nil {
		return nil, fmt.Errorf("%s: new message: %w", b.id, err)
	}
	defer msg.Release()
	if err := b.build(seg, s); err != nil {
		return nil, fmt.Errorf("%s: build %T: %w", b.id, s, err)
	}
	data, err := msg.Marshal()
	if err != nil {
		return nil, fmt.Errorf("%s: marshal %T: %w", b.id, s, err)
	}
	return data, nil
}

// The traversal limit of a message of n bytes is TraverseFactor*n +
// TraverseSlack bytes (see the package doc).
const (
	TraverseFactor = 4
	TraverseSlack  = 8192
)

// rootOf returns the root struct of the message in data, which it reads in
// place, under the traversal limit of its size.
func (b *binding[S, R]) rootOf(data []byte) (R, error) {
	var zero R
	msg, err := capnp.Unmarshal(data)
	if err != nil {
		return zero, fmt.Errorf("%s: unmarshal %d bytes: %w", b.id, len(data), err)
	}
	msg.ResetReadLimit(TraverseFactor*uint64(len(data)) + TraverseSlack)
	r, err := b.root(msg)
	if err != nil {
		return zero, fmt.Errorf("%s: root of %d bytes: %w", b.id, len(data), err)
	}
	return r, nil
}

// Unmarshal returns a new *S holding copies of every field of data.
func (b *binding[S, R]) Unmarshal(data []byte) (any, error) {
	r, err := b.rootOf(data)
	if err != nil {
		return nil, err
	}
	s, err := b.read(r)
	if err != nil {
		return nil, fmt.Errorf("%s: read %T from %d bytes: %w", b.id, r, len(data), err)
	}
	return s, nil
}

// lazyBinding is the Binding and codec.Converter of "capnp/lazy".
type lazyBinding[S, R any] struct {
	*binding[S, R]
	touch func(R) (uint64, error)
	// sink collects the checksums of touch so that its reads stay live.
	sink uint64
}

var _ codec.Converter = (*lazyBinding[scenario.SSEEvent, capnpb.SSEEvent])(nil)

// Unmarshal reads every field of data in place and returns the root
// struct, an R that refers to data, which must then stay unchanged.
func (b *lazyBinding[S, R]) Unmarshal(data []byte) (any, error) {
	r, err := b.rootOf(data)
	if err != nil {
		return nil, err
	}
	sum, err := b.touch(r)
	if err != nil {
		return nil, fmt.Errorf("%s: read %T in place from %d bytes: %w", b.id, r, len(data), err)
	}
	b.sink += sum
	return r, nil
}

// ToNative returns v, a non-nil *S, as it is: Marshal builds the message
// from the scenario value itself.
func (b *lazyBinding[S, R]) ToNative(v any) (any, error) {
	s, ok := v.(*S)
	if !ok || s == nil {
		return nil, fmt.Errorf("%s: ToNative wants a non-nil %T, got %T", b.id, (*S)(nil), v)
	}
	return s, nil
}

// FromNative copies r, the R that Unmarshal returned, into a new *S. A
// non-nil *S, what ToNative returns, passes through as it is, so the
// runner's convert operation (ToNative, then FromNative of its result)
// times no conversion for this codec: it has none on the writing side.
func (b *lazyBinding[S, R]) FromNative(v any) (any, error) {
	if s, ok := v.(*S); ok && s != nil {
		return s, nil
	}
	r, ok := v.(R)
	if !ok {
		return nil, fmt.Errorf("%s: FromNative wants a %T or a non-nil %T, got %T", b.id, *new(R), (*S)(nil), v)
	}
	s, err := b.read(r)
	if err != nil {
		return nil, fmt.Errorf("%s: read %T: %w", b.id, r, err)
	}
	return s, nil
}

// Codecs returns a new instance of each codec this package ships, in
// report order (codec/all holds every shipped codec, codec/defaults the
// default set).
func Codecs() []codec.Codec { return []codec.Codec{New(), NewLazy()} }
