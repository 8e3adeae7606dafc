package serbench

import (
	"bytes"
	"fmt"
	"reflect"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/derive"
)

const flatbuffersModule = "github.com/google/flatbuffers"

// FlatBuffersDerived returns the codec "flatbuffers" for your type T
// through the code flatc generated from the schema serbench derives from
// T and the conversion functions serbench generated beside it (`serbench
// init -type T -codegen flatbuffers` writes serbenchfb/t.fbs, its
// //go:generate line and serbench_flatbuffers_test.go):
//
//	serbench.Options{Extra: []codec.Codec{serbench.FlatBuffersDerived(serbenchMarshalFlatBuffers, serbenchUnmarshalFlatBuffers, serbenchFlatBuffersSchema)}}
//
// marshal builds a *T into the Builder (Reset first) through flatc's
// builder functions and returns the Builder's finished bytes; unmarshal
// reads a FlatBuffer through flatc's accessors into a zero T. Benchmark
// times them as op=marshal and op=unmarshal: there is no op=convert, the
// conversion being the building and reading itself, with no object API
// value between. Each Binding keeps one Builder; Marshal copies the bytes
// out so the caller owns them. Unmarshal turns the panic that a malformed
// buffer causes (the Go runtime 2.0.8 has no verifier) into an error.
// schema is the derive.Schema.Digest of the schema the code was
// generated from (the generated constant serbenchFlatBuffersSchema). Bind
// refuses any type but *T, and a T whose derived schema (with the
// Options.Skip in effect) no longer has that digest, the code being stale
// (run serbench init and go generate again) (codec.ErrUnsupported).
func FlatBuffersDerived[T any](marshal func(*flatbuffers.Builder, *T) []byte, unmarshal func([]byte, *T) error, schema string) codec.Codec {
	return fbsDerived[T]{derivedLosses: derivedLosses[T]{f: derive.FlatBuffers}, marshal: marshal, unmarshal: unmarshal, schema: schema}
}

type fbsDerived[T any] struct {
	derivedLosses[T]
	marshal   func(*flatbuffers.Builder, *T) []byte
	unmarshal func([]byte, *T) error
	schema    string
}

var (
	_ codec.Codec   = fbsDerived[int]{}
	_ lossExplainer = fbsDerived[int]{}
	_ skipper       = fbsDerived[int]{}
)

// withDerive implements skipper.
func (c fbsDerived[T]) withDerive(o derive.Options) codec.Codec {
	c.opts = o
	return c
}

// Info implements codec.Codec.
func (c fbsDerived[T]) Info() codec.Info {
	return codec.Info{ID: "flatbuffers", Module: flatbuffersModule, Version: codec.ModuleVersion(flatbuffersModule),
		API:    codec.APITyped,
		Unsafe: true, // its module imports package unsafe
		Format: "FlatBuffers", Kind: codec.Codegen, Binary: true,
		Time: "ns, a Timestamp table of Unix seconds and nanoseconds: instant kept, UTC forced (offset and zone name lost)",
		Options: fmt.Sprintf("flatc 2.0.8 builders and accessors from the schema derived from %T, through generated conversion code (no object API); one Builder per Binding, Reset per Marshal, bytes copied out",
			(*T)(nil))}
}

// Bind implements codec.Codec.
func (c fbsDerived[T]) Bind(sample any) (codec.Binding, error) {
	if _, ok := sample.(*T); !ok {
		return nil, codec.Unsupported("flatbuffers", "generated for %T, not %T", (*T)(nil), sample)
	}
	s, err := c.opts.DeriveFlatBuffers(reflect.TypeFor[T]())
	if err != nil {
		return nil, codec.Unsupported("flatbuffers", "%v", err)
	}
	if d := s.Digest(); d != c.schema {
		return nil, codec.Unsupported("flatbuffers", "the code was generated from another schema than the one derived from %T now (%s, now %s: a field changed): run serbench init again (after moving serbench_test.go and the generated files away) and go generate",
			(*T)(nil), c.schema, d)
	}
	return &fbsDerivedBinding[T]{c: c, b: flatbuffers.NewBuilder(1024)}, nil
}

type fbsDerivedBinding[T any] struct {
	c fbsDerived[T]
	b *flatbuffers.Builder
}

// Marshal implements codec.Binding.
func (b *fbsDerivedBinding[T]) Marshal(v any) ([]byte, error) {
	t, ok := v.(*T)
	if !ok || t == nil {
		return nil, fmt.Errorf("flatbuffers: Marshal wants a non-nil %T, got %T", (*T)(nil), v)
	}
	return bytes.Clone(b.c.marshal(b.b, t)), nil
}

// Unmarshal implements codec.Binding.
func (b *fbsDerivedBinding[T]) Unmarshal(data []byte) (out any, err error) {
	if len(data) < flatbuffers.SizeUOffsetT {
		return nil, fmt.Errorf("flatbuffers: %d bytes is too short for a FlatBuffer (the root offset alone is %d)", len(data), flatbuffers.SizeUOffsetT)
	}
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("flatbuffers: malformed buffer: %v", p)
		}
	}()
	t := new(T)
	if err := b.c.unmarshal(data, t); err != nil {
		return nil, fmt.Errorf("flatbuffers: %w", err)
	}
	return t, nil
}
