// Package flatbuffers adapts github.com/google/flatbuffers/go, the Go runtime
// of FlatBuffers, with code that flatc generated from
// schema/flatbuffers/serbench.fbs into package fb (see fb/doc.go).
//
// It offers two codecs, which encode the same bytes and differ in what
// Unmarshal does:
//
//   - "flatbuffers" materialises: Unmarshal unpacks the buffer into the
//     generated object API type (*fb.UserProfileT, ...), copying every string,
//     as the other codecs build a Go value.
//   - "flatbuffers/lazy" reads in place: Unmarshal gets the root table and
//     reads every field through the generated accessors without copying
//     (strings are slices of the input), then returns the table accessor
//     (*fb.UserProfile, ...), which refers to the input bytes. Its FromNative
//     unpacks that accessor so the result can be compared with the original.
//     Unmarshal allocates once: the 32-byte accessor that the generated
//     GetRootAs returns, which escapes as the returned any.
//
// Both convert a scenario value to the object API type in ToNative (see
// convert.go for what the mapping keeps and loses) and encode it with the
// generated Pack method into a flatbuffers.Builder that the Binding reuses
// (Builder.Reset before each Marshal: the library documents Reset as
// "facilitating alloc-free reuse of a Builder"), then copy the finished bytes
// out so the caller owns them.
//
// The Go runtime 2.0.8 has no buffer verifier. Unmarshal recovers from the
// index-out-of-range panics that malformed input causes and returns an
// error instead, and both codecs bound what a buffer may expand to
// (expansion.go): in Verify (codec.Verifier), which callers of untrusted
// input run before "flatbuffers" unpacks, and while "flatbuffers/lazy"
// reads in place, a walk charges every vector, table and string against
// MaxExpansion times the input size and stops with an *ExpansionError
// (wrapping ErrExpansion) past it. That refuses shared-offset (DAG)
// buffers, which would otherwise expand a few hundred KB into hundreds of
// millions of objects, and vectors claiming more elements than the buffer
// holds, before anything is allocated for them. The walk is not part of
// "flatbuffers"' Unmarshal, so its timed decode is the library's own.
package flatbuffers

import (
	"bytes"
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/flatbuffers/fb"
	"github.com/serbench/serbench/scenario"
)

// IDs of the two codecs.
const (
	ID     = "flatbuffers"
	LazyID = "flatbuffers/lazy"
)

const module = "github.com/google/flatbuffers"

// initialBuilderBytes is the starting capacity of a Binding's Builder; it
// grows as needed and keeps its size across Marshal calls.
const initialBuilderBytes = 1024

type fbCodec struct{ lazy bool }

// New returns the "flatbuffers" codec, whose Unmarshal builds the whole
// object API value. Bind returns an error wrapping codec.ErrUnsupported for
// every type but the five seed scenarios.
func New() codec.Codec { return fbCodec{} }

// NewLazy returns the "flatbuffers/lazy" codec, whose Unmarshal reads every
// field in place and returns the root table accessor. Bind returns an error
// wrapping codec.ErrUnsupported for every type but the five seed scenarios.
func NewLazy() codec.Codec { return fbCodec{lazy: true} }

func (c fbCodec) Info() codec.Info {
	i := codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2025-12-19", // v25.12.19+incompatible, the newest release: go list -m github.com/google/flatbuffers@latest

		API:    codec.APITyped,
		Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
		Format: "FlatBuffers", Kind: codec.Codegen, Binary: true,
		Options: "object API (flatc 2.0.8 --gen-object-api); one Builder per Binding, Reset per Marshal, bytes copied out; " +
			"Unmarshal unpacks the whole value; time as Unix ns + offset (zone name lost); maps as key-sorted vectors",
		Status: "pinned to 2.0.8, the release of Debian 12's flatc, so the committed code regenerates identically",
		Time:   "ns as int64 Unix ns + offset: offset kept, zone name lost; years 1678-2262 only", Default: !c.lazy}
	if c.lazy {
		i.ID = LazyID
		i.ZeroCopy = true
		i.Options = "object API Pack (flatc 2.0.8); one Builder per Binding, Reset per Marshal, bytes copied out; " +
			"Unmarshal reads every field in place (zero-copy) and returns the root table, unpacked only in FromNative; " +
			"time as Unix ns + offset (zone name lost); maps as key-sorted vectors"
	}
	return i
}

// Bind implements codec.Codec. FlatBuffers keeps a binding of its own
// rather than a codec.Converting: encoding needs a Builder per Binding and
// the object API's Pack, and the lazy variant's Unmarshal returns a root
// table accessor (R) that is neither the object type (T) nor convertible
// back without UnPack, so each type needs six functions, not two.
func (c fbCodec) Bind(sample any) (codec.Binding, error) {
	id := c.Info().ID
	switch sample.(type) {
	case *scenario.SSEEvent:
		return newBinding(id, c.lazy, sseToFB, sseFromFB, (*fb.SSEEventT).Pack, fb.GetRootAsSSEEvent, (*fb.SSEEvent).UnPack, touchSSE), nil
	case *scenario.UserEvent:
		return newBinding(id, c.lazy, userEventToFB, userEventFromFB, (*fb.UserEventT).Pack, fb.GetRootAsUserEvent, (*fb.UserEvent).UnPack, touchUserEvent), nil
	case *scenario.WSMessage:
		return newBinding(id, c.lazy, wsToFB, wsFromFB, (*fb.WSMessageT).Pack, fb.GetRootAsWSMessage, (*fb.WSMessage).UnPack, touchWS), nil
	case *scenario.Annotation:
		return newBinding(id, c.lazy, annotationToFB, annotationFromFB, (*fb.AnnotationT).Pack, fb.GetRootAsAnnotation, (*fb.Annotation).UnPack, touchAnnotation), nil
	case *scenario.UserProfile:
		return newBinding(id, c.lazy, profileToFB, profileFromFB, (*fb.UserProfileT).Pack, fb.GetRootAsUserProfile, (*fb.UserProfile).UnPack, touchProfile), nil
	}
	if b := bindAnnot(id, c.lazy, sample); b != nil {
		return b, nil
	}
	return nil, codec.Unsupported(id, "no FlatBuffers schema for %T (only the five seed scenarios and the annotation workloads have one)", sample)
}

// binding encodes scenario type S as object API type T, whose root table
// accessor is R.
type binding[S, T, R any] struct {
	id      string
	lazy    bool
	builder *flatbuffers.Builder
	// sink collects the lazy reader's checksums so its reads stay live.
	sink uint64
	// budget is the expansion bound of the walk in progress (Verify, the
	// lazy Unmarshal); kept here so that the walk allocates nothing.
	budget budget

	toFB   func(*S) (*T, error)
	fromFB func(*T) *S
	pack   func(*T, *flatbuffers.Builder) flatbuffers.UOffsetT
	root   func([]byte, flatbuffers.UOffsetT) *R
	unpack func(*R) *T
	touch  func(*R, *budget) uint64
}

var (
	_ codec.Binding   = (*binding[scenario.UserProfile, fb.UserProfileT, fb.UserProfile])(nil)
	_ codec.Converter = (*binding[scenario.UserProfile, fb.UserProfileT, fb.UserProfile])(nil)
)

func newBinding[S, T, R any](id string, lazy bool,
	toFB func(*S) (*T, error), fromFB func(*T) *S,
	pack func(*T, *flatbuffers.Builder) flatbuffers.UOffsetT,
	root func([]byte, flatbuffers.UOffsetT) *R, unpack func(*R) *T, touch func(*R, *budget) uint64,
) *binding[S, T, R] {
	return &binding[S, T, R]{id: id, lazy: lazy, builder: flatbuffers.NewBuilder(initialBuilderBytes),
		toFB: toFB, fromFB: fromFB, pack: pack, root: root, unpack: unpack, touch: touch}
}

// ToNative converts a *S scenario value to its object API value *T.
func (b *binding[S, T, R]) ToNative(v any) (any, error) {
	s, ok := v.(*S)
	if !ok || s == nil {
		return nil, fmt.Errorf("%s: ToNative wants a non-nil %T, got %T", b.id, (*S)(nil), v)
	}
	return b.toFB(s)
}

// FromNative converts what Unmarshal returned (*T, or *R for the lazy
// variant, which it unpacks first) back to a *S scenario value.
func (b *binding[S, T, R]) FromNative(v any) (out any, err error) {
	var t *T
	switch x := v.(type) {
	case *T:
		t = x
	case *R:
		if x == nil {
			break
		}
		defer b.recoverMalformed(&err)
		t = b.unpack(x)
	}
	if t == nil {
		return nil, fmt.Errorf("%s: FromNative wants a non-nil %T or %T, got %T", b.id, (*T)(nil), (*R)(nil), v)
	}
	return b.fromFB(t), nil
}

// Marshal packs v, a *T from ToNative, into the Binding's Builder and
// returns a copy of the finished bytes.
func (b *binding[S, T, R]) Marshal(v any) ([]byte, error) {
	t, ok := v.(*T)
	if !ok || t == nil {
		return nil, fmt.Errorf("%s: Marshal wants a non-nil %T, got %T", b.id, (*T)(nil), v)
	}
	b.builder.Reset()
	b.builder.Finish(b.pack(t, b.builder))
	return bytes.Clone(b.builder.FinishedBytes()), nil
}

// Unmarshal returns a *T holding copies of every field of data, or for the
// lazy variant the *R root table of data after reading every field in
// place; the *R refers to data, which must then stay unchanged. The lazy
// variant reads under the expansion bound (an *ExpansionError past it);
// the eager one does not: decode untrusted bytes through Verify first.
func (b *binding[S, T, R]) Unmarshal(data []byte) (out any, err error) {
	if len(data) < flatbuffers.SizeUOffsetT {
		return nil, fmt.Errorf("%s: %d bytes is too short for a FlatBuffer (the root offset alone is %d)", b.id, len(data), flatbuffers.SizeUOffsetT)
	}
	defer b.recoverMalformed(&err)
	r := b.root(data, 0)
	if b.lazy {
		b.budget.reset(b.id, len(data))
		b.sink += b.touch(r, &b.budget)
		return r, nil
	}
	return b.unpack(r), nil
}

// Verify implements codec.Verifier: it reads every field of data in place
// under the expansion bound (an *ExpansionError past it) and reports a
// malformed buffer as Unmarshal does, allocating nothing. The lazy
// variant's Unmarshal is that read already; the eager one unpacks without
// it, so untrusted input goes through Verify first
// (codec.UnmarshalUntrusted).
func (b *binding[S, T, R]) Verify(data []byte) (err error) {
	if len(data) < flatbuffers.SizeUOffsetT {
		return fmt.Errorf("%s: %d bytes is too short for a FlatBuffer (the root offset alone is %d)", b.id, len(data), flatbuffers.SizeUOffsetT)
	}
	defer b.recoverMalformed(&err)
	b.budget.reset(b.id, len(data))
	b.sink += b.touch(b.root(data, 0), &b.budget)
	return nil
}

// recoverMalformed turns the runtime panic that reading a malformed buffer
// causes (an index out of range, a slice bound) into an error, and the
// expansion bound's *ExpansionError into itself.
func (b *binding[S, T, R]) recoverMalformed(err *error) {
	if p := recover(); p != nil {
		if e, ok := p.(*ExpansionError); ok {
			*err = e
			return
		}
		*err = fmt.Errorf("%s: malformed buffer: %v", b.id, p)
	}
}

// Codecs returns a new instance of each codec this package ships, in
// report order (codec/all holds every shipped codec, codec/defaults the
// default set).
func Codecs() []codec.Codec { return []codec.Codec{New(), NewLazy()} }
