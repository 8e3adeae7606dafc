// Package cbor adapts github.com/fxamacker/cbor/v2.
package cbor

import (
	"fmt"
	"reflect"

	"github.com/fxamacker/cbor/v2"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "cbor"

const module = "github.com/fxamacker/cbor/v2"

// New returns cbor with two options set, both documented by the library:
// EncOptions.Time = TimeRFC3339Nano, because the default (TimeUnix) drops the
// fraction of a second; and DecOptions.DefaultMapType = map[string]any, so a
// map decoded into an interface matches what encoding/json gives rather than
// map[any]any.
func New() codec.Codec {
	em, err := cbor.EncOptions{Time: cbor.TimeRFC3339Nano}.EncMode()
	if err != nil {
		panic(fmt.Sprintf("cbor: fixed EncOptions rejected: %v", err)) // constant options: a bug here, not input
	}
	dm, err := cbor.DecOptions{DefaultMapType: reflect.TypeFor[map[string]any]()}.DecMode()
	if err != nil {
		panic(fmt.Sprintf("cbor: fixed DecOptions rejected: %v", err))
	}
	return codec.Funcs{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			Format: "CBOR", Kind: codec.Reflect, Binary: true,
			Options: "EncOptions.Time=TimeRFC3339Nano (default TimeUnix drops nanoseconds); DecOptions.DefaultMapType=map[string]any"},
		Marshal:   em.Marshal,
		Unmarshal: dm.Unmarshal,
	}
}
