// Package sereal adapts github.com/Sereal/Sereal/Go/sereal, the Go
// implementation of Sereal, the binary format of Perl's Sereal module:
// self-describing, with structs written as named objects whose fields
// are keyed by name.
package sereal

import (
	"reflect"

	"github.com/Sereal/Sereal/Go/sereal"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "sereal"

const module = "github.com/Sereal/Sereal/Go/sereal"

// New returns Sereal with its defaults (sereal.Marshal, sereal.Unmarshal):
// protocol version 3, no compression. Bind refuses types that hold
// pointers below the top level: the decoder cannot fill a pointer field
// ("reflect: call of reflect.Value.SetString on ptr Value"), and maps with
// keys that are not strings, whose encoding it cannot decode ("expect
// stringish").
func New() codec.Codec {
	return codec.Refusing{Refuse: refuse, Codec: codec.Funcs{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2023-10-09", // v0.0.0-20231009093132-b9187f1a92c6, the linked and newest version: go list -m -f {{.Time}} github.com/Sereal/Sereal/Go/sereal

			API:    codec.APITyped,
			Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
			Format: "Sereal", Kind: codec.Reflect, Binary: true,
			Time:    "ns, offset kept (time.Time.MarshalBinary), zone name not",
			Status:  "no tagged release of the Go module; last commit 2023",
			Options: "defaults (Marshal/Unmarshal: protocol v3, no compression); types with pointer fields or non-string map keys refused in Bind (the decoder cannot fill or read them)"},
		Marshal:   sereal.Marshal,
		Unmarshal: sereal.Unmarshal,
	}}
}

// refuse gives the reason Bind refuses t, a pointer to the scenario
// value, or "".
func refuse(t reflect.Type) string {
	switch {
	case t.Kind() == reflect.Pointer && codec.HoldsKind(t.Elem(), reflect.Pointer):
		return "holds pointers, which the Sereal decoder cannot fill"
	case codec.Holds(t, func(t reflect.Type) bool { return t.Kind() == reflect.Map && t.Key().Kind() != reflect.String }):
		return "holds a map with keys that are not strings, which the Sereal decoder cannot read back"
	}
	return ""
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
