// Package benc adapts github.com/deneonet/benc with the structs and methods
// that its generator, bencgen, wrote from schema/benc/serbench.benc into
// package bencgen. bencgen writes two encodings per struct, and each is a
// codec here:
//
//   - "benc" uses Marshal/Unmarshal: every field is preceded by a tag (its
//     ID and wire type) and every struct ends with a terminator, so that
//     readers skip unknown fields and tolerate missing ones (bencgen's
//     forward and backward compatibility).
//   - "benc/plain" uses MarshalPlain/UnmarshalPlain: the fields back to
//     back in schema order, with no tags, as benc's std package writes them
//     by hand; a reader must have the writer's exact schema. Unmarshal
//     checks that the whole input was read (benc.VerifyUnmarshal).
//
// Both are a codec.Converting over the generated structs: ToNative copies a
// scenario value into one (convert.go); Marshal sizes it (the generated
// Size or SizePlain), allocates that many bytes and writes into them;
// Unmarshal decodes into a new struct, copying every string out of the
// input. (The library's BufPool reuses one buffer per Marshal, so the
// bytes it returns are overwritten by the next call: not used here.)
package benc

//go:generate go tool bencgen --in ../../schema/benc/serbench.benc --lang go --out bencgen --file ...
//go:generate gofmt -w bencgen/serbench.go
//go:generate go run github.com/serbench/serbench/internal/gencheck/generate benc-convert

import (
	"fmt"

	"github.com/deneonet/benc"

	"github.com/serbench/serbench/codec"
)

// IDs of the two codecs.
const (
	ID      = "benc"
	PlainID = "benc/plain"
)

const module = "github.com/deneonet/benc"

// tagged is what bencgen generates on every struct for "benc".
type tagged interface {
	Size() int
	Marshal(b []byte)
	Unmarshal(b []byte) error
}

// plain is what bencgen generates on every struct for "benc/plain".
type plain interface {
	SizePlain() int
	MarshalPlain(tn int, b []byte) int
	UnmarshalPlain(tn int, b []byte) (int, error)
}

const common = "bencgen structs (schema/benc/serbench.benc); Marshal allocates the exact size and writes into it; " +
	"strings copied on decode; time as Unix s + ns + offset (zone name lost); nil slices and maps decode as empty"

func info(id, options string) codec.Info {
	return codec.Info{ID: id, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2025-05-17", // v1.1.8, the linked and newest version: go list -m -f {{.Time}} github.com/deneonet/benc

		API:    codec.APITyped,
		Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
		Format: "benc", Kind: codec.Codegen, Binary: true,
		Time:    "ns, offset kept (zone name lost)",
		Options: options + "; " + common}
}

// New returns the "benc" codec (tagged fields, forward and backward
// compatible). It binds the five seed scenario types and returns an error
// wrapping codec.ErrUnsupported for any other.
func New() codec.Codec {
	return codec.Converting[tagged]{
		Meta:    info(ID, "generated Marshal/Unmarshal: tagged fields, forward and backward compatible"),
		Convs:   convs,
		Missing: "no container for %T in schema/benc/serbench.benc",
		Marshal: func(v tagged) ([]byte, error) {
			b := make([]byte, v.Size())
			v.Marshal(b)
			return b, nil
		},
		Unmarshal: func(data []byte, v tagged) error {
			if err := v.Unmarshal(data); err != nil {
				return fmt.Errorf("%s: unmarshal %d bytes into %T: %w", ID, len(data), v, err)
			}
			return nil
		},
	}
}

// NewPlain returns the "benc/plain" codec (untagged fields in schema order).
// It binds the five seed scenario types and returns an error wrapping
// codec.ErrUnsupported for any other.
func NewPlain() codec.Codec {
	return codec.Converting[plain]{
		Meta:    info(PlainID, "generated MarshalPlain/UnmarshalPlain: untagged fields in schema order, input length verified"),
		Convs:   convs,
		Missing: "no container for %T in schema/benc/serbench.benc",
		Marshal: func(v plain) ([]byte, error) {
			b := make([]byte, v.SizePlain())
			if err := benc.VerifyMarshal(v.MarshalPlain(0, b), b); err != nil {
				return nil, fmt.Errorf("%s: marshal %T: %w", PlainID, v, err)
			}
			return b, nil
		},
		Unmarshal: func(data []byte, v plain) error {
			n, err := v.UnmarshalPlain(0, data)
			if err == nil {
				err = benc.VerifyUnmarshal(n, data)
			}
			if err != nil {
				return fmt.Errorf("%s: unmarshal %d bytes into %T: %w", PlainID, len(data), v, err)
			}
			return nil
		},
	}
}

// Codecs returns a new instance of each codec this package ships, in
// report order (codec/all holds every shipped codec, codec/defaults the
// default set).
func Codecs() []codec.Codec { return []codec.Codec{New(), NewPlain()} }
