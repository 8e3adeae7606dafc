// Package jsoniter adapts github.com/json-iterator/go.
package jsoniter

import (
	jsoniter "github.com/json-iterator/go"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "jsoniter"

const module = "github.com/json-iterator/go"

// New returns jsoniter's ConfigCompatibleWithStandardLibrary, the
// configuration that behaves as encoding/json does (docs/reference.md, "Codecs").
func New() codec.Codec {
	api := jsoniter.ConfigCompatibleWithStandardLibrary
	return codec.Funcs{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			Format: "JSON", Kind: codec.Reflect, Options: "ConfigCompatibleWithStandardLibrary",
			Time: "ns, RFC 3339 text: offset kept, zone name lost; years 0-9999 only", Default: true},
		Marshal:   api.Marshal,
		Unmarshal: api.Unmarshal,
	}
}
