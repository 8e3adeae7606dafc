// Package dedis adapts go.dedis.ch/protobuf, which encodes Go structs as
// Protocol Buffers messages by reflection: field numbers follow the
// declaration order (or a `protobuf` struct tag), with no .proto file and
// no generated code.
package dedis

import (
	"fmt"
	"reflect"

	"go.dedis.ch/protobuf"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "dedis-protobuf"

const module = "go.dedis.ch/protobuf"

// New returns go.dedis.ch/protobuf with its defaults (protobuf.Encode,
// protobuf.Decode), which have no options to set. Both recover the
// library's own panics (an unsupported field, a bad message) into errors,
// and Decode checks every length against the message, so a length prefix
// cannot make it allocate more than the message holds. A time.Time is an
// sfixed64 of Unix nanoseconds, decoded in time.Local. Empty slices and
// maps are not written: they come back nil. The decoder undoes the zigzag
// encoding of int and int64 with an arithmetic shift, so a value of
// magnitude 2^62 or more comes back wrong without an error (2^62 as -2^62,
// math.MaxInt64 as -1, math.MinInt64 as 0; TestZigzagBeyond2p62). Given a
// signed integer field with a wire type it cannot read, the decoder prints
// a line to standard output (fmt.Println in decode.go) before returning
// its error; the adapter cannot stop it. Bind refuses what the library
// cannot carry (see unmapped): a value that is not a struct; interfaces
// (Decode needs a constructor per interface type); Go integer types with
// no Protocol Buffers counterpart (8- and 16-bit integers outside []byte,
// uint, uintptr), complex numbers, arrays other than [N]byte, nested
// slices other than [][]byte, and maps whose values are slices other than
// []byte.
func New() codec.Codec {
	return codec.Refusing{Refuse: refuse, Codec: codec.Funcs{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2019-11-25", // v1.0.11, the linked and newest version: go list -m -f {{.Time}} go.dedis.ch/protobuf

			API:    codec.APITyped,
			Format: "Protocol Buffers", Kind: codec.Reflect, Binary: true,
			Time:    "ns, zone lost: an sfixed64 of Unix ns, decoded in time.Local (years outside 1678–2262 wrap)",
			Status:  "last release v1.0.11 (2019-11); int and int64 of magnitude 2^62 or more decode wrong without an error (math.MaxInt64 as -1)",
			Options: "defaults (Encode/Decode, no options: field numbers in declaration order, packed repeated scalars, empty slices and maps not written); types without a Protocol Buffers mapping in the library refused in Bind"},
		Marshal:   protobuf.Encode,
		Unmarshal: protobuf.Decode,
	}}
}

// refuse gives the reason Bind refuses t, a pointer to the scenario
// value, or "".
func refuse(t reflect.Type) string {
	switch {
	case t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct:
		return "is not a pointer to a struct, and the library encodes only structs, as messages"
	case codec.HoldsKind(t, reflect.Interface):
		return "holds interface values, which the decoder fills only through a constructor registered per interface type"
	}
	var why string
	codec.Holds(t, func(t reflect.Type) bool { why = unmapped(t); return why != "" })
	if why != "" {
		return "holds " + why
	}
	return ""
}

// unmapped says why the library cannot carry t itself (not what t holds),
// or returns "".
func unmapped(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Uint16, reflect.Uint, reflect.Uintptr,
		reflect.Complex64, reflect.Complex128, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return fmt.Sprintf("a %s, which the library does not encode (unsupported field Kind)", t)
	case reflect.Array:
		if t.Elem().Kind() != reflect.Uint8 {
			return fmt.Sprintf("an array %s, which the decoder cannot fill (only [N]byte)", t)
		}
	case reflect.Slice:
		if isList(t.Elem()) && t.Elem().Elem().Kind() != reflect.Uint8 {
			return fmt.Sprintf("a nested slice %s, which the library does not encode (only [][]byte)", t)
		}
	case reflect.Map:
		switch {
		case t.Key().Kind() == reflect.Uint8 || t.Elem().Kind() == reflect.Uint8:
			return fmt.Sprintf("a map %s, whose uint8 the library does not encode (only in []byte)", t)
		case isList(t.Elem()) && t.Elem().Elem().Kind() != reflect.Uint8:
			return fmt.Sprintf("a map of slices %s, which the library does not encode (only []byte values)", t)
		}
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && (f.Type.Kind() == reflect.Uint8 ||
				f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Uint8) {
				return fmt.Sprintf("a uint8 field %s.%s, which the library does not encode (only in []byte)", t, f.Name)
			}
		}
	}
	return ""
}

// isList reports whether t is a slice or an array.
func isList(t reflect.Type) bool { return t.Kind() == reflect.Slice || t.Kind() == reflect.Array }

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
