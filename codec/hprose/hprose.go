// Package hprose adapts the serializer of github.com/hprose/hprose-golang/v3
// (package io), the Hprose format of the hprose RPC framework: a
// self-describing text-like format of one-letter tags ('i' integers, 'l'
// longs, 'd' doubles, 's' strings with a UTF-16 length, 'a' lists, 'm' maps),
// where a struct is a class definition (its name and field names, once per
// message) followed by objects holding only the field values.
package hprose

import (
	"fmt"
	"reflect"

	hio "github.com/hprose/hprose-golang/v3/io"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "hprose"

const module = "github.com/hprose/hprose-golang/v3"

// New returns the Hprose serializer as io.Marshal and io.Unmarshal use it:
// simple mode (no reference table, so a pointer shared twice is written
// twice and a cyclic value never ends), field names from the hprose or json
// struct tag, integers decoded to the target's type. Unmarshal must consume
// the whole message: trailing bytes are an error. Any panic of the library
// is recovered into an error.
//
// A time.Time is written as its wall clock in its own zone, to the
// nanosecond, with one flag: UTC or not. A time in UTC comes back UTC; any
// other comes back as the same wall clock in time.Local, so its offset is
// lost and its instant moves by the difference between its offset and
// time.Local's (TestTimeWallClock). An empty slice decodes as nil. Bind
// refuses what the library cannot carry: maps whose values hold slices or
// pointers (the decoder reuses one value for every entry: entries share
// one array: {"a": [1, 2], "b": [3, 4]} comes back with both entries
// [3, 4] or both [1, 2]), interfaces (decoded as the library's default types: an int64
// comes back as an int) and complex numbers (written as a list, which the
// decoder cannot read back).
func New() codec.Codec {
	return codec.Refusing{Refuse: refuse, Codec: codec.Funcs{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2022-05-27", // v3.0.10, the linked and newest version: go list -m -f {{.Time}} github.com/hprose/hprose-golang/v3

			API:    codec.APITyped,
			Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
			Format: "Hprose", Kind: codec.Reflect, Binary: true,
			Time:    "ns wall clock, offset lost: a UTC time stays UTC; any other is decoded as the same wall clock in time.Local, so its instant moves unless its offset is time.Local's",
			Status:  "v3.0.10 (2022-05); an RPC framework's serializer, rarely used alone",
			Options: "io.Marshal/io.Unmarshal (simple mode: no reference table, a shared pointer is written twice; field names from the json tag); trailing bytes rejected; panics recovered into errors"},
		Marshal:   marshal,
		Unmarshal: unmarshal,
	}}
}

// refuse gives the reason Bind refuses t, or "".
func refuse(t reflect.Type) string {
	switch {
	case codec.Holds(t, sharedMapValue):
		return "holds a map whose values hold slices or pointers, which the decoder decodes into one reused value, so the entries share one array or one struct"
	case codec.HoldsKind(t, reflect.Interface):
		return "holds interface values, which the library decodes as its default types (an int64 comes back as an int)"
	case codec.Holds(t, func(t reflect.Type) bool {
		return t.Kind() == reflect.Complex64 || t.Kind() == reflect.Complex128
	}):
		return "holds a complex number, which the library writes as a list it cannot read back"
	}
	return ""
}

func marshal(v any) (data []byte, err error) {
	defer codec.RecoverEncode(&err, ID, v)
	data, err = hio.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("hprose: encoding %T: %w", v, err)
	}
	return data, nil
}

func unmarshal(data []byte, v any) (err error) {
	defer codec.RecoverDecode(&err, ID, data)
	dec := hio.NewDecoder(data)
	dec.Decode(v)
	if dec.Error != nil {
		return fmt.Errorf("hprose: decoding %d bytes: %w", len(data), dec.Error)
	}
	if rest := dec.Remains(); len(rest) != 0 {
		return fmt.Errorf("hprose: decoded %d of %d bytes", len(data)-len(rest), len(data))
	}
	return nil
}

// sharedMapValue reports whether t is a map whose values hold a slice
// (other than []byte, which the decoder copies) or a pointer: the decoder
// decodes every entry into one value and copies it into the map, so a
// later entry writes over the array of an earlier entry's slice, and every
// pointer points to one struct.
func sharedMapValue(t reflect.Type) bool {
	return t.Kind() == reflect.Map && codec.Holds(t.Elem(), func(t reflect.Type) bool {
		return t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8
	})
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
