// Package msgpack adapts github.com/vmihailenco/msgpack/v5.
package msgpack

import (
	"github.com/vmihailenco/msgpack/v5"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "msgpack"

const module = "github.com/vmihailenco/msgpack/v5"

// New returns msgpack with its defaults. Struct fields are keyed by their
// Go names (msgpack reads `msgpack` tags, not `json` ones); time.Time uses the
// MessagePack timestamp extension (-1), which keeps the instant to the
// nanosecond but not the zone: values decode in time.Local.
func New() codec.Codec {
	return codec.Funcs{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			Format: "MessagePack", Kind: codec.Reflect, Binary: true,
			Options: "defaults (time as timestamp extension: instant kept, zone not)",
			Time:    "ns, timestamp extension -1: instant kept, decoded as Local (offset and zone name lost); any year", Default: true},
		Marshal:   msgpack.Marshal,
		Unmarshal: msgpack.Unmarshal,
	}
}
