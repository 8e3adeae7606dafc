// Package shamaton adapts github.com/shamaton/msgpack/v3, a reflection-based
// MessagePack library with two struct layouts: as a map keyed by field name
// (the MessagePack convention, readable by any decoder) and as an array in
// field order (smaller and faster, but both ends must agree on the Go
// struct's field order).
package shamaton

import (
	"sync"

	"github.com/shamaton/msgpack/v3"

	"github.com/serbench/serbench/codec"
)

// ID is the map-mode codec's stable ID; IDArray is the array-mode variant's.
const (
	ID      = "shamaton-msgpack"
	IDArray = "shamaton-msgpack/array"
)

const module = "github.com/shamaton/msgpack/v3"

const timeText = "ns, UTC forced (timestamp extension -1; decoded in UTC by SetDecodedTimeAsUTC)"

var utcOnce sync.Once

// decodeUTC makes decoded times UTC rather than time.Local, a package-wide
// setting of the library: a time's zone is not on the wire either way, and
// UTC keeps the result independent of the machine's TZ.
func decodeUTC() { utcOnce.Do(msgpack.SetDecodedTimeAsUTC) }

// info is what both modes state, with the mode's ID and Options.
func info(id, options string) codec.Info {
	return codec.Info{ID: id, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2026-02-06", // v3.1.0, the linked and newest version: go list -m -f {{.Time}} github.com/shamaton/msgpack/v3

		API:    codec.APITyped,
		Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
		Format: "MessagePack", Kind: codec.Reflect, Binary: true, Time: timeText,
		Options: options}
}

// New returns shamaton/msgpack in map mode (MarshalAsMap, UnmarshalAsMap):
// structs are maps keyed by Go field name (the library reads `msgpack`
// tags, not `json` ones).
func New() codec.Codec {
	decodeUTC()
	return codec.Funcs{
		Meta:      info(ID, "MarshalAsMap/UnmarshalAsMap (structs as maps keyed by Go field name); SetDecodedTimeAsUTC (default decodes times in time.Local)"),
		Marshal:   msgpack.MarshalAsMap,
		Unmarshal: msgpack.UnmarshalAsMap,
	}
}

// NewArray returns shamaton/msgpack in array mode (MarshalAsArray,
// UnmarshalAsArray): structs are arrays of their fields in declaration
// order, without field names.
func NewArray() codec.Codec {
	decodeUTC()
	return codec.Funcs{
		Meta:      info(IDArray, "MarshalAsArray/UnmarshalAsArray (structs as arrays in field order: no field names on the wire, both ends need the same struct); SetDecodedTimeAsUTC"),
		Marshal:   msgpack.MarshalAsArray,
		Unmarshal: msgpack.UnmarshalAsArray,
	}
}

// Codecs returns a new instance of each codec this package ships, in
// report order (codec/all holds every shipped codec, codec/defaults the
// default set).
func Codecs() []codec.Codec { return []codec.Codec{New(), NewArray()} }
