// Package kelindar adapts github.com/kelindar/binary, a reflection-based
// binary encoder with a format of its own: fields in declaration order,
// varint integers and lengths, no field names or type tags on the wire.
package kelindar

import (
	"reflect"

	"github.com/kelindar/binary"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "kelindar-binary"

const module = "github.com/kelindar/binary"

// New returns kelindar/binary with its defaults (binary.Marshal,
// binary.Unmarshal). A time.Time goes through its MarshalBinary method,
// which keeps the instant to the nanosecond and the offset from UTC but not
// the zone's name. Bind refuses recursive types (codec.Recursive): the
// library builds its codec for a type by recursion and overflows the stack
// on them, a fatal error no recover catches; and types holding interfaces,
// which it cannot encode.
func New() codec.Codec {
	return codec.Refusing{Refuse: refuse, Codec: codec.Funcs{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2024-02-25", // v1.0.19, the linked and newest version: go list -m -f {{.Time}} github.com/kelindar/binary

			API:    codec.APITyped,
			Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
			Format: "kelindar/binary", Kind: codec.Reflect, Binary: true,
			Time:    "ns, offset kept (time.Time.MarshalBinary), zone name not",
			Options: "defaults (fields in declaration order, no names on the wire: both ends need the same struct)"},
		Marshal:   binary.Marshal,
		Unmarshal: binary.Unmarshal,
	}}
}

// refuse gives the reason Bind refuses t, or "".
func refuse(t reflect.Type) string {
	switch {
	case codec.Recursive(t):
		return "is a recursive type, on which the library's type scan overflows the stack"
	case codec.HoldsKind(t, reflect.Interface):
		return "holds interface values, which the format (no type tags) cannot carry"
	}
	return ""
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
