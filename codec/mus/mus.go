// Package mus adapts github.com/mus-format/mus-go, the Go library of the MUS
// format, with serializers that its generator, musgen-go, wrote for the
// seed scenario types into mus-format.gen.go (see the go:generate line
// below and internal/musgen for the options). The serializers work on the
// scenario types themselves, so there is no conversion: Marshal sizes the
// value with the generated Size, allocates that many bytes and writes into
// them; Unmarshal decodes a new value, copying every string out of the
// input (package ord), and refuses input with bytes left over.
//
// mus-go is pinned to v0.7.2, the release that the newest generator the
// module proxy serves (musgen-go v0.2.3) writes code for; its successor,
// github.com/mus-format/mus-gen-go (which targets mus-go v0.10), is not
// served (see docs/codecs.md, "Libraries considered and left out").
//
// Reading untrusted input: the generated serializers use the library's
// default decoders, which check every read against the bytes left but
// allocate a slice or map with the length the input claims before reading
// its elements (the generator's length validators, not set here, would
// bound them).
package mus

//go:generate go run ./internal/musgen mus-format.gen.go

import (
	"fmt"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

// ID is the codec's stable ID.
const ID = "mus"

const module = "github.com/mus-format/mus-go"

// serializer is what musgen-go generates for every struct T.
type serializer[T any] interface {
	Marshal(v T, bs []byte) (n int)
	Unmarshal(bs []byte) (v T, n int, err error)
	Size(v T) (size int)
}

type musCodec struct{}

// New returns the mus codec. It binds the five seed scenario types and
// returns an error wrapping codec.ErrUnsupported for any other.
func New() codec.Codec { return musCodec{} }

// Info implements codec.Codec.
func (musCodec) Info() codec.Info {
	return codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2025-10-26", // v0.7.2, the linked and newest version: go list -m -f {{.Time}} github.com/mus-format/mus-go

		API:    codec.APITyped,
		Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
		Format: "MUS", Kind: codec.Codegen, Binary: true,
		Time: "ns, UTC forced; years 1678 to 2262 (Unix ns)",
		Options: "musgen-go v0.2.3 serializers on the scenario types (varint integers and lengths); " +
			"time.Time as Unix ns decoded in UTC (typeops.NanoUTC); Marshal allocates the exact size; " +
			"Unmarshal refuses trailing bytes",
		Status: "pinned to v0.7.2 (v0.10.2 is current): the newest generator the module proxy serves, musgen-go v0.2.3, targets v0.7"}
}

// Bind implements codec.Codec.
func (musCodec) Bind(sample any) (codec.Binding, error) {
	switch sample.(type) {
	case *scenario.SSEEvent:
		return binding[scenario.SSEEvent]{SSEEventMUS}, nil
	case *scenario.UserEvent:
		return binding[scenario.UserEvent]{UserEventMUS}, nil
	case *scenario.WSMessage:
		return binding[scenario.WSMessage]{WSMessageMUS}, nil
	case *scenario.Annotation:
		return binding[scenario.Annotation]{AnnotationMUS}, nil
	case *scenario.UserProfile:
		return binding[scenario.UserProfile]{UserProfileMUS}, nil
	}
	return nil, codec.Unsupported(ID, "no generated serializer for %T (musgen-go ran on the seed scenario types only)", sample)
}

// binding encodes *T with the generated serializer s.
type binding[T any] struct{ s serializer[T] }

// Marshal encodes v, a *T, into a new buffer of the exact size.
func (b binding[T]) Marshal(v any) ([]byte, error) {
	t, ok := v.(*T)
	if !ok || t == nil {
		return nil, fmt.Errorf("%s: Marshal wants a non-nil %T, got %T", ID, (*T)(nil), v)
	}
	buf := make([]byte, b.s.Size(*t))
	if n := b.s.Marshal(*t, buf); n != len(buf) {
		return nil, fmt.Errorf("%s: marshal %T wrote %d bytes, Size said %d", ID, t, n, len(buf))
	}
	return buf, nil
}

// Unmarshal decodes data into a new *T.
func (b binding[T]) Unmarshal(data []byte) (any, error) {
	v, n, err := b.s.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("%s: unmarshal %d bytes into %T: %w", ID, len(data), &v, err)
	}
	if n != len(data) {
		return nil, fmt.Errorf("%s: unmarshal %T read %d of %d bytes", ID, &v, n, len(data))
	}
	return &v, nil
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
