// Package msgpack adapts github.com/vmihailenco/msgpack/v5.
package msgpack

import (
	"bytes"

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
			LastRelease: "2023-10-26", // v5.4.1, the linked and newest version: go list -m -f {{.Time}} github.com/vmihailenco/msgpack/v5

			API:    codec.APITyped,
			Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
			Format: "MessagePack", Kind: codec.Reflect, Binary: true,
			Options: "defaults (time as timestamp extension: instant kept, zone not)",
			Time:    "ns, timestamp extension -1: instant kept, decoded as Local (offset and zone name lost); any year", Default: true},
		Marshal:   msgpack.Marshal,
		Unmarshal: msgpack.Unmarshal,
		Code:      &codec.GoCode{Imports: []string{"github.com/vmihailenco/msgpack/v5"}, Marshal: "msgpack.Marshal", Unmarshal: "msgpack.Unmarshal"},
		Any: &codec.Untyped{
			Method: "the codec's Unmarshal into *any and Marshal of the value",
			Decode: func(data []byte) (any, error) {
				var v any
				err := msgpack.Unmarshal(data, &v)
				return v, err
			},
			Encode:   func(v any) ([]byte, error) { return msgpack.Marshal(&v) },
			NoEncode: map[string]string{"ext": "an extension value needs a Go type registered with msgpack.RegisterExt"},
		},
		FieldsBy: "msgpack tags, by name",
	}
}

// ArrayID is the ID of the array-encoded variant.
const ArrayID = "msgpack/array"

// NewArray returns msgpack with Encoder.UseArrayEncodedStructs: a struct
// is a MessagePack array of its field values in declaration order, without
// the field names (the decoder reads either form). Smaller and faster, at
// the cost of schema evolution: reordering, removing or inserting a field
// silently misreads old data.
func NewArray() codec.Codec {
	return codec.Funcs{
		Meta: codec.Info{ID: ArrayID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2023-10-26", // v5.4.1, the linked and newest version: go list -m -f {{.Time}} github.com/vmihailenco/msgpack/v5

			API:    codec.APITyped,
			Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
			Format: "MessagePack", Kind: codec.Reflect, Binary: true,
			Options: "Encoder.UseArrayEncodedStructs(true) on a pooled Encoder (structs as arrays of field values, no field names); msgpack.Unmarshal; time as timestamp extension",
			Time:    "ns, timestamp extension -1: instant kept, decoded as Local (offset and zone name lost); any year"},
		Marshal:   marshalArray,
		Unmarshal: msgpack.Unmarshal,
	}
}

// marshalArray is msgpack.Marshal with UseArrayEncodedStructs set after
// the Reset that clears an Encoder's flags.
func marshalArray(v any) ([]byte, error) {
	enc := msgpack.GetEncoder()
	defer msgpack.PutEncoder(enc)
	var buf bytes.Buffer
	enc.Reset(&buf)
	enc.UseArrayEncodedStructs(true)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Codecs returns a new instance of each codec this package ships, in
// report order (codec/all holds every shipped codec, codec/defaults the
// default set).
func Codecs() []codec.Codec { return []codec.Codec{New(), NewArray()} }
