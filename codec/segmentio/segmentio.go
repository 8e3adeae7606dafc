// Package segmentio adapts github.com/segmentio/encoding/json.
package segmentio

import (
	"github.com/segmentio/encoding/json"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "segmentio-json"

const module = "github.com/segmentio/encoding"

// New returns segmentio's json package with its defaults.
func New() codec.Codec {
	return codec.Funcs{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2026-03-10", // v0.5.4, the linked and newest version: go list -m -f {{.Time}} github.com/segmentio/encoding

			API:    codec.APITyped,
			Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
			Format: "JSON", Kind: codec.Reflect, Options: "defaults",
			Time: "ns, RFC 3339 text: offset kept, zone name lost; years 0-9999 only (marshals year 10000, then cannot unmarshal it)"},
		Marshal:   json.Marshal,
		Unmarshal: json.Unmarshal,
		Code:      &codec.GoCode{Imports: []string{"segjson github.com/segmentio/encoding/json"}, Marshal: "segjson.Marshal", Unmarshal: "segjson.Unmarshal"},
		FieldsBy:  "json tags, by name",
	}
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
