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

// MaxNestedLevels is the decoder's nesting limit: the library's default is
// 32, and the golang_source corpus (a syntax tree) nests 33 levels deep.
// It stays a limit: untrusted input cannot nest deeper than this.
const MaxNestedLevels = 256

// EncOptions returns the encoding options of the cbor row: the library's
// defaults but for Time = TimeRFC3339Nano, because the default (TimeUnix)
// drops the fraction of a second. Package conformance runs them too.
func EncOptions() cbor.EncOptions { return cbor.EncOptions{Time: cbor.TimeRFC3339Nano} }

// DecOptions returns the decoding options of the cbor row: the library's
// defaults but for DefaultMapType = map[string]any, so a map decoded into
// an interface matches what encoding/json gives rather than map[any]any,
// and MaxNestedLevels = MaxNestedLevels. Package conformance runs them too.
func DecOptions() cbor.DecOptions {
	return cbor.DecOptions{DefaultMapType: reflect.TypeFor[map[string]any](), MaxNestedLevels: MaxNestedLevels}
}

// New returns cbor with EncOptions and DecOptions, whose three options are
// all documented by the library.
func New() codec.Codec {
	em, err := EncOptions().EncMode()
	if err != nil {
		panic(fmt.Sprintf("cbor: fixed EncOptions rejected: %v", err)) // constant options: a bug here, not input
	}
	dm, err := DecOptions().DecMode()
	if err != nil {
		panic(fmt.Sprintf("cbor: fixed DecOptions rejected: %v", err))
	}
	return codec.Funcs{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2026-10-28", // v2.10.0, the linked and newest version: go list -m -f {{.Time}} github.com/fxamacker/cbor/v2

			API:    codec.APITyped,
			Format: "CBOR", Kind: codec.Reflect, Binary: true,
			Options: "EncOptions.Time=TimeRFC3339Nano (default TimeUnix drops nanoseconds); DecOptions.DefaultMapType=map[string]any; DecOptions.MaxNestedLevels=256 (default 32)",
			Time:    "ns, RFC 3339 text (tag 0): offset kept, zone name lost; years 0-9999 only", Default: true},
		Marshal:   em.Marshal,
		Unmarshal: dm.Unmarshal,
		Code:      &codec.GoCode{Imports: []string{"reflect", "github.com/fxamacker/cbor/v2"}, Setup: goSetup, Marshal: "cborEnc.Marshal", Unmarshal: "cborDec.Unmarshal"},
		FieldsBy:  "cbor tags, by name",
	}
}

// goSetup builds the same modes as New in a standalone program (serbench
// export).
var goSetup = fmt.Sprintf(`var cborEnc, cborDec = func() (cbor.EncMode, cbor.DecMode) {
	em, err := cbor.EncOptions{Time: cbor.TimeRFC3339Nano}.EncMode()
	if err != nil {
		panic(err)
	}
	dm, err := cbor.DecOptions{DefaultMapType: reflect.TypeFor[map[string]any](), MaxNestedLevels: %d}.DecMode()
	if err != nil {
		panic(err)
	}
	return em, dm
}()`, MaxNestedLevels)

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
