// Package easyjson adapts github.com/mailru/easyjson, a JSON code generator.
// It encodes the mirror types of package mirror, whose methods easyjson
// generated with -all -no_std_marshalers (MarshalEasyJSON and
// UnmarshalEasyJSON only, so no other JSON codec can pick them up).
package easyjson

import (
	"fmt"

	"github.com/mailru/easyjson"
	"github.com/mailru/easyjson/jlexer"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/mirror"
)

// ID is the codec's stable ID.
const ID = "easyjson"

const module = "github.com/mailru/easyjson"

// New returns easyjson: easyjson.Marshal (its pooled jwriter buffer, copied
// into bytes the caller owns) and easyjson.Unmarshal on the mirror types.
// time.Time goes through its own MarshalJSON (RFC 3339 with the offset; the
// zone name is lost). Map keys are written in Go's map iteration order, not
// sorted as encoding/json sorts them. Bind returns an error wrapping
// codec.ErrUnsupported for every type but the five seed scenarios and the
// annotation workloads.
func New() codec.Codec {
	return codec.Converting[easyjson.MarshalerUnmarshaler]{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2026-03-14", // v0.9.2, the linked and newest version: go list -m -f {{.Time}} github.com/mailru/easyjson

			API:    codec.APITyped,
			Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
			Format: "JSON", Kind: codec.Codegen, Binary: false,
			Options: "generated with -all -no_std_marshalers onto mirror types; easyjson.Marshal/Unmarshal; map keys unsorted",
			Time:    "ns, RFC 3339 text: offset kept, zone name lost; years 0-9999 only", Default: true},
		Convs:   mirror.Convs,
		Missing: mirror.Missing,
		Marshal: func(m easyjson.MarshalerUnmarshaler) ([]byte, error) { return easyjson.Marshal(m) },
		Unmarshal: func(data []byte, m easyjson.MarshalerUnmarshaler) error {
			if err := easyjson.Unmarshal(data, m); err != nil {
				return fmt.Errorf("easyjson: %w", err)
			}
			return nil
		},
		Any: &codec.Untyped{
			Method: "jlexer.Lexer.Interface then Consumed, as easyjson's generated code decodes an `any` field of a top-level value",
			Decode: func(data []byte) (any, error) {
				l := jlexer.Lexer{Data: data}
				v := l.Interface()
				l.Consumed()
				return v, l.Error()
			},
		},
	}
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
