// Package jsoniter adapts github.com/json-iterator/go.
package jsoniter

import (
	jsoniter "github.com/json-iterator/go"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "jsoniter"

const module = "github.com/json-iterator/go"

// status is the upkeep fact both variants state (codec.Info.Status).
const status = "archived upstream: its owners archived the GitHub repository github.com/json-iterator/go (read-only) in December 2025; last release v1.1.12 of 2021-09"

// info is what both variants state, with the variant's ID and Options.
func info(id, options string) codec.Info {
	return codec.Info{ID: id, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2021-09-11", // v1.1.12, the linked and newest version: go list -m -f {{.Time}} github.com/json-iterator/go
		Archived:    true,         // archived upstream (status)
		Status:      status,

		API:    codec.APITyped,
		Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
		Format: "JSON", Kind: codec.Reflect, Options: options,
		Time: "ns, RFC 3339 text: offset kept, zone name lost; years 0-9999 only"}
}

// New returns jsoniter's ConfigCompatibleWithStandardLibrary, the
// configuration that behaves as encoding/json does (docs/reference.md, "Codecs").
func New() codec.Codec {
	api := jsoniter.ConfigCompatibleWithStandardLibrary
	meta := info(ID, "ConfigCompatibleWithStandardLibrary")
	meta.Default = true
	return codec.Funcs{
		Meta:      meta,
		Marshal:   api.Marshal,
		Unmarshal: api.Unmarshal,
		Code: &codec.GoCode{Imports: []string{"jsoniter github.com/json-iterator/go"},
			Marshal: "jsoniter.ConfigCompatibleWithStandardLibrary.Marshal", Unmarshal: "jsoniter.ConfigCompatibleWithStandardLibrary.Unmarshal"},
		FieldsBy: "json tags, by name",
	}
}

// FastestID is the ID of the ConfigFastest variant.
const FastestID = "jsoniter/fastest"

// NewFastest returns jsoniter's ConfigFastest: no HTML escaping, floats
// marshalled with at most 6 digits after the point, and object keys read
// as simple strings (no escapes in keys); map keys unsorted. Floats that
// need more digits do not round-trip.
func NewFastest() codec.Codec {
	api := jsoniter.ConfigFastest
	return codec.Funcs{
		Meta:      info(FastestID, "ConfigFastest (EscapeHTML off, MarshalFloatWith6Digits, ObjectFieldMustBeSimpleString; map keys unsorted)"),
		Marshal:   api.Marshal,
		Unmarshal: api.Unmarshal,
	}
}

// Codecs returns a new instance of each codec this package ships, in
// report order (codec/all holds every shipped codec, codec/defaults the
// default set).
func Codecs() []codec.Codec { return []codec.Codec{New(), NewFastest()} }
