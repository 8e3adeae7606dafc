// Package ffjson adapts github.com/pquerna/ffjson, a JSON code generator
// (archived in 2019; serbench pins its last commit). It encodes the mirror
// types of package mirror, onto which ffjson generated MarshalJSONBuf and
// UnmarshalJSONFFLexer (plus MarshalJSON and UnmarshalJSON).
package ffjson

import (
	"fmt"

	"github.com/pquerna/ffjson/ffjson"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/mirror"
)

// ID is the codec's stable ID.
const ID = "ffjson"

const module = "github.com/pquerna/ffjson"

// New returns ffjson: ffjson.MarshalFast (ffjson.Marshal without its
// encoding/json fallback), which calls the generated MarshalJSONBuf on a
// buffer from ffjson's pool and hands that buffer's bytes to the caller
// (serbench never calls ffjson.Pool to give them back, so the caller owns
// them), and ffjson.UnmarshalFast, which calls the generated
// UnmarshalJSONFFLexer. time.Time goes through its own MarshalJSON (RFC 3339
// with the offset; the zone name is lost). Map keys are written in Go's map
// iteration order, not sorted, and ffjson writes a space after the opening
// brace of a map and of a struct with omitempty fields ({ "src":"feed-a"}),
// so its output can be a few bytes longer than encoding/json's. Bind returns
// an error wrapping codec.ErrUnsupported for every type but the five seed
// scenarios and the annotation workloads. A value without generated code is an error from MarshalFast,
// never a silent fallback to encoding/json.
func New() codec.Codec {
	return codec.Converting[any]{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2019-09-30", // v0.0.0-20190930134022-aa0246cd15f7, the linked and newest version: go list -m -f {{.Time}} github.com/pquerna/ffjson
			Archived:    true,         // archived upstream (Status)

			API:    codec.APITyped,
			Format: "JSON", Kind: codec.Codegen, Binary: false,
			Options: "generated onto mirror types; ffjson.MarshalFast (result never returned with ffjson.Pool) and ffjson.UnmarshalFast (no encoding/json fallback); map keys unsorted",
			Time:    "ns, RFC 3339 text: offset kept, zone name lost; years 0-9999 only",
			Status:  "archived upstream; its last commit is from 2019-09"},
		Convs:   mirror.Convs,
		Missing: mirror.Missing,
		Marshal: func(v any) ([]byte, error) {
			data, err := ffjson.MarshalFast(v)
			if err != nil {
				return nil, fmt.Errorf("ffjson: %w", err)
			}
			return data, nil
		},
		Unmarshal: func(data []byte, p any) error {
			if err := ffjson.UnmarshalFast(data, p); err != nil {
				return fmt.Errorf("ffjson: %w", err)
			}
			return nil
		},
		Any: &codec.Untyped{NA: "ffjson generates code per type; ffjson.Unmarshal hands any other type (an `any` included) to encoding/json, so its row would be encoding/json's"},
	}
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
