// Package jsonv2 adapts github.com/go-json-experiment/json, the proposed
// encoding/json/v2.
package jsonv2

import (
	"github.com/go-json-experiment/json"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "json-v2"

const module = "github.com/go-json-experiment/json"

// opts keeps nil slices and maps nil through a round trip: by default v2
// writes them as [] and {}, which decode as empty, not nil.
var opts = json.JoinOptions(json.FormatNilSliceAsNull(true), json.FormatNilMapAsNull(true))

// New returns json-v2 with FormatNilSliceAsNull and FormatNilMapAsNull set.
func New() codec.Codec {
	return codec.Funcs{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2026-08-20", // v0.0.0-20260820222146-c27c302e5fc3, the linked and newest version: go list -m -f {{.Time}} github.com/go-json-experiment/json

			API:    codec.APITyped,
			Format: "JSON", Kind: codec.Reflect,
			Options: "FormatNilSliceAsNull, FormatNilMapAsNull (nil stays nil, as in v1)",
			Time:    "ns, RFC 3339 text: offset kept, zone name lost; years 0-9999 only", Default: true},
		Marshal:   func(v any) ([]byte, error) { return json.Marshal(v, opts) },
		Unmarshal: func(data []byte, v any) error { return json.Unmarshal(data, v, opts) },
		Code: &codec.GoCode{Imports: []string{"jsonv2 github.com/go-json-experiment/json"},
			Setup:     "var jsonv2Opts = jsonv2.JoinOptions(jsonv2.FormatNilSliceAsNull(true), jsonv2.FormatNilMapAsNull(true))",
			Marshal:   "func(v any) ([]byte, error) { return jsonv2.Marshal(v, jsonv2Opts) }",
			Unmarshal: "func(data []byte, v any) error { return jsonv2.Unmarshal(data, v, jsonv2Opts) }"},
		FieldsBy: "json tags, by name",
	}
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
