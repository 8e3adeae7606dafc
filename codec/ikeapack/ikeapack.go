// Package ikeapack adapts github.com/ikkerens/ikeapack, a reflection-based
// packer with a format of its own: exported fields in declaration order,
// integers and floats big-endian at their fixed size, strings, slices and
// maps after a big-endian uint32 length, no field names or type tags.
package ikeapack

import (
	"bytes"
	"fmt"
	"reflect"
	"time"

	ikea "github.com/ikkerens/ikeapack"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "ikeapack"

const module = "github.com/ikkerens/ikeapack"

// New returns ikeapack with its defaults (ikea.Pack, ikea.Unpack, no
// compressed fields). Unmarshal must consume the whole message: trailing
// bytes are an error. The library panics on a nil pointer it is given to
// pack and on types it has no handler for; the adapter recovers those
// panics into errors. Bind refuses the types it cannot carry (see
// refuse): int and uint (refused by the library, whose sizes depend on the
// platform), interfaces, arrays, complex numbers, and time.Time, which has
// no exported fields: the library writes nothing for it and decodes the
// zero time, without an error. The library allocates a slice, map or
// string of the length a uint32 prefix claims (up to 2^31-1 elements)
// before reading its elements, and has no limit to set. It packs strings
// that are not UTF-8 but rejects them when unpacking. It caches a type's
// handler by the type's name (reflect.Type.String), so two types of the
// same name in packages of the same name would share one.
func New() codec.Codec {
	return codec.Refusing{Refuse: refuse, Codec: codec.Funcs{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2019-03-13", // v1.5.1, the linked and newest version: go list -m -f {{.Time}} github.com/ikkerens/ikeapack

			API:    codec.APITyped,
			Format: "ikeapack", Kind: codec.Reflect, Binary: true,
			Time:    "none: a time.Time has no exported fields, so the library writes nothing and decodes the zero time; types holding one are refused",
			Status:  "last release v1.5.1 (2019-03); allocates what a length prefix claims (no decode limit)",
			Options: "defaults (Pack/Unpack, no compressed fields; fields in declaration order, no names on the wire); trailing bytes rejected; panics (nil pointers, unsupported types) recovered into errors"},
		Marshal:   marshal,
		Unmarshal: unmarshal,
	}}
}

var timeType = reflect.TypeFor[time.Time]()

// refuse gives the reason Bind refuses t, or "".
func refuse(t reflect.Type) string {
	switch {
	case codec.Holds(t, func(t reflect.Type) bool { return t == timeType }):
		return "holds a time.Time, which has no exported fields: the library writes nothing for it and decodes the zero time"
	case codec.Holds(t, func(t reflect.Type) bool { return t.Kind() == reflect.Int || t.Kind() == reflect.Uint }):
		return "holds int or uint, which the library refuses (their size depends on the platform)"
	case codec.HoldsKind(t, reflect.Interface):
		return "holds interface values, which the format (no type tags) cannot carry"
	case codec.Holds(t, unsupported):
		return "holds an array, complex number, uintptr, channel or function, for which the library has no handler"
	}
	return ""
}

// unsupported reports whether the library has no handler for t's kind.
func unsupported(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Array, reflect.Complex64, reflect.Complex128, reflect.Uintptr,
		reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	}
	return false
}

func marshal(v any) (data []byte, err error) {
	defer codec.RecoverEncode(&err, ID, v)
	var buf bytes.Buffer
	if err := ikea.Pack(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func unmarshal(data []byte, v any) (err error) {
	defer codec.RecoverDecode(&err, ID, data)
	r := bytes.NewReader(data)
	if err := ikea.Unpack(r, v); err != nil {
		return err
	}
	if r.Len() != 0 {
		return fmt.Errorf("ikeapack: decoded %d of %d bytes", len(data)-r.Len(), len(data))
	}
	return nil
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
