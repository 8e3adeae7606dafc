// Package stdjson adapts the standard library's encoding/json, the baseline
// of every speed-up serbench reports.
package stdjson

import (
	"encoding/json"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "encoding/json"

// New returns encoding/json with its defaults (json.Marshal, json.Unmarshal).
func New() codec.Codec {
	return codec.Funcs{
		Meta: codec.Info{ID: ID, Module: "std", Version: codec.ModuleVersion("std"),
			API:    codec.APITyped,
			Format: "JSON", Kind: codec.Reflect, Options: "defaults",
			Time: "ns, RFC 3339 text: offset kept, zone name lost; years 0-9999 only", Default: true},
		Marshal:   json.Marshal,
		Unmarshal: json.Unmarshal,
		Code:      &codec.GoCode{Imports: []string{"encoding/json"}, Marshal: "json.Marshal", Unmarshal: "json.Unmarshal"},
		FieldsBy:  "json tags, by name",
	}
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
