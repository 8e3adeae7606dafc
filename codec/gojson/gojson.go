// Package gojson adapts github.com/goccy/go-json.
package gojson

import (
	gojson "github.com/goccy/go-json"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "go-json"

const module = "github.com/goccy/go-json"

// New returns go-json with its defaults.
func New() codec.Codec {
	return codec.Funcs{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2026-10-29", // v0.12.0, the linked and newest version: go list -m -f {{.Time}} github.com/goccy/go-json

			API:    codec.APITyped,
			Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
			Format: "JSON", Kind: codec.Reflect, Options: "defaults",
			Time: "ns, RFC 3339 text: offset kept, zone name lost; years 0-9999 only", Default: true},
		Marshal:   gojson.Marshal,
		Unmarshal: gojson.Unmarshal,
		Code:      &codec.GoCode{Imports: []string{"gojson github.com/goccy/go-json"}, Marshal: "gojson.Marshal", Unmarshal: "gojson.Unmarshal"},
		FieldsBy:  "json tags, by name",
	}
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
