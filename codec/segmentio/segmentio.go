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
			Format: "JSON", Kind: codec.Reflect, Options: "defaults"},
		Marshal:   json.Marshal,
		Unmarshal: json.Unmarshal,
	}
}
