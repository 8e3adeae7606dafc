// Package memmove is a reference row, not a codec: the physical floor of
// moving a message's bytes, against which reports show every codec's ratio.
//
// Bind encodes the sample once with package wire. Marshal then copies those
// bytes into a buffer the Binding owns and returns it (valid until the next
// Marshal); it ignores its argument beyond checking the type. Unmarshal
// copies data into another buffer the Binding owns and returns a *[]byte
// pointing at it (valid until the next Unmarshal), not a Go value of the
// bound type: there is nothing to compare with the original, so the runner
// does not round-trip-check Reference rows. After the first call of each,
// neither allocates.
package memmove

import (
	"fmt"
	"reflect"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/wire"
)

// ID is the row's stable ID.
const ID = "memmove"

// New returns the memmove reference row.
func New() codec.Codec { return memmove{} }

type memmove struct{}

var _ codec.Codec = memmove{}

func (memmove) Info() codec.Info {
	return codec.Info{ID: ID, Module: "github.com/serbench/serbench", Version: codec.ModuleVersion("github.com/serbench/serbench"),
		API:    codec.APITyped,
		Format: wire.Format + " (copied, not encoded)", Kind: codec.Reference, Binary: true, ReusesOutput: true,
		Options: "Marshal copies the sample's wire encoding made once at Bind; Unmarshal copies its input and returns *[]byte, not a Go value; buffers owned by the Binding, valid until the next call",
		Time:    "none: copies bytes, decodes nothing", Default: true}
}

// Bind encodes sample with wire; types wire does not support are
// unsupported here too.
func (memmove) Bind(sample any) (codec.Binding, error) {
	enc, err := wire.Marshal(sample)
	if err != nil {
		return nil, codec.Unsupported(ID, "wire cannot encode %T", sample)
	}
	return &binding{typ: reflect.TypeOf(sample), enc: enc}, nil
}

type binding struct {
	typ     reflect.Type
	enc     []byte // the sample's wire encoding
	out, in []byte // Marshal's and Unmarshal's buffers
}

// Marshal copies the encoding made at Bind into the Binding's buffer. v must
// have the bound type; its contents are not read.
func (b *binding) Marshal(v any) ([]byte, error) {
	if reflect.TypeOf(v) != b.typ {
		return nil, fmt.Errorf("memmove: Marshal wants %s, got %T", b.typ, v)
	}
	b.out = append(b.out[:0], b.enc...)
	return b.out, nil
}

// Unmarshal copies data into the Binding's buffer and returns a pointer to it.
func (b *binding) Unmarshal(data []byte) (any, error) {
	b.in = append(b.in[:0], data...)
	return &b.in, nil
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
