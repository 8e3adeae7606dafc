// Package bebop adapts github.com/200sc/bebop, a Go implementation of the
// Bebop serialization format, with the structs and methods that its
// bebopc-go generated from schema/bebop/serbench.bop into package bebopgen.
//
// The codec is a codec.Converting over the generated structs: ToNative
// copies a scenario value into one (convert.go), Marshal calls its
// generated MarshalBebop (which sizes the record, allocates once and writes
// it; the library recommends it over EncodeBebop for speed) and Unmarshal
// its UnmarshalBebop, which copies every string out of the input (the
// generator's -share-string-memory option, off here, would make strings
// share the input's memory instead).
//
// Reading untrusted input: the generated decoder checks every fixed-size
// read and string length against the bytes left, but allocates an array or
// map with the 32-bit length the input claims before reading its elements,
// so a few bytes can ask for gigabytes (an allocation bomb).
package bebop

//go:generate go tool bebopc-go -i ../../schema/bebop/serbench.bop -o bebopgen/serbench.go -package bebopgen
//go:generate gofmt -w bebopgen/serbench.go
//go:generate go run github.com/serbench/serbench/internal/gencheck/generate bebop-convert

import (
	"fmt"

	"github.com/200sc/bebop"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "bebop"

const module = "github.com/200sc/bebop"

// New returns the bebop codec. It binds the five seed scenario types and
// returns an error wrapping codec.ErrUnsupported for any other.
func New() codec.Codec {
	return codec.Converting[bebop.Record]{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2024-07-05", // v0.6.2, the linked and newest version: go list -m -f {{.Time}} github.com/200sc/bebop

			API:    codec.APITyped,
			Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
			Format: "Bebop", Kind: codec.Codegen, Binary: true,
			Time: "ns, offset kept (zone name lost)",
			Options: "bebopc-go structs (schema/bebop/serbench.bop, default options: strings copied on decode); " +
				"generated MarshalBebop/UnmarshalBebop; time as Unix s + ns + offset (zone name lost; " +
				"Bebop's date type keeps 100 ns ticks in UTC); nil slices and maps decode as empty"},
		Convs:   convs,
		Missing: "no struct for %T in schema/bebop/serbench.bop",
		Marshal: func(r bebop.Record) ([]byte, error) { return r.MarshalBebop(), nil },
		Unmarshal: func(data []byte, r bebop.Record) error {
			if err := r.UnmarshalBebop(data); err != nil {
				return fmt.Errorf("%s: unmarshal %d bytes into %T: %w", ID, len(data), r, err)
			}
			return nil
		},
	}
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
