// Package alecthomas adapts github.com/alecthomas/binary, a reflection-based
// encoder that extends encoding/binary to variable-sized values: exported
// fields in declaration order, fixed-size numbers little-endian (int and
// uint as 8 bytes), strings, slices and maps after a varint length, no
// field names or type tags.
package alecthomas

import (
	"bytes"
	"fmt"
	"io"
	"reflect"

	"github.com/alecthomas/binary"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "alecthomas-binary"

const module = "github.com/alecthomas/binary"

// New returns alecthomas/binary with its defaults (binary.NewEncoder,
// binary.NewDecoder: little-endian), decoding from a reader that fails a
// read it cannot fill (fullReader): the library reads a string with one
// Read, so on a plain bytes.Reader, as binary.Unmarshal uses, a string cut
// short by the end of the message comes back padded with zero bytes
// without an error, and a message that ends with an empty string fails
// (EOF).
// Unmarshal must consume the whole message: trailing bytes are an error.
// The decoder panics on some bad input (a length beyond what make accepts);
// the adapter recovers those panics into errors. A time.Time goes through
// its MarshalBinary method, which keeps the instant to the nanosecond and
// the offset from UTC but not the zone's name. Bind refuses types holding
// pointers below the top level, which the decoder cannot fill, interfaces,
// which it cannot decode, and arrays below the top level, on which the
// encoder panics (reflect.Value.Addr of unaddressable value). The library allocates a string or
// slice of the length a varint claims before reading it, and has no limit
// to set.
func New() codec.Codec {
	return codec.Refusing{Refuse: refuse, Codec: codec.Funcs{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2022-10-18", // v0.0.0-20221018225505-74871811ee56, the linked and newest version: go list -m -f {{.Time}} github.com/alecthomas/binary

			API:    codec.APITyped,
			Format: "alecthomas/binary", Kind: codec.Reflect, Binary: true,
			Time:    "ns, offset kept (time.Time.MarshalBinary), zone name not",
			Status:  "no tagged release; last commit 2022; allocates what a length prefix claims (no decode limit)",
			Options: "defaults (little-endian; fields in declaration order, no names on the wire); decodes from a reader that fails short reads and allows empty ones (binary.Unmarshal pads a cut string with zero bytes, and fails on a message ending with an empty string); trailing bytes rejected; decoder panics recovered into errors"},
		Marshal:   marshal,
		Unmarshal: unmarshal,
	}}
}

// refuse gives the reason Bind refuses t, a pointer to the scenario
// value, or "".
func refuse(t reflect.Type) string {
	switch {
	case codec.HoldsKind(t.Elem(), reflect.Pointer):
		return "holds pointers, which the decoder cannot fill (binary: unsupported type)"
	case codec.HoldsKind(t, reflect.Interface):
		return "holds interface values, which the decoder cannot fill (binary: unsupported type)"
	case codec.HoldsKind(t.Elem(), reflect.Array):
		return "holds an array below the top level, which the encoder cannot take (it takes the address of a value that has none)"
	case codec.Holds(t, func(t reflect.Type) bool {
		k := t.Kind()
		return k == reflect.Uintptr || k == reflect.Chan || k == reflect.Func || k == reflect.UnsafePointer
	}):
		return "holds a uintptr, channel or function, which the library does not encode"
	}
	return ""
}

func marshal(v any) (data []byte, err error) {
	defer codec.RecoverEncode(&err, ID, v)
	return binary.Marshal(v)
}

func unmarshal(data []byte, v any) (err error) {
	defer codec.RecoverDecode(&err, ID, data)
	r := &fullReader{bytes.NewReader(data)}
	if err := binary.NewDecoder(r).Decode(v); err != nil {
		return err
	}
	if n := r.Len(); n != 0 {
		return fmt.Errorf("alecthomas-binary: decoded %d of %d bytes", len(data)-n, len(data))
	}
	return nil
}

// fullReader is a bytes.Reader whose Read fills p or fails, reading
// nothing: the library's string and BinaryUnmarshaler paths read once and
// would otherwise take a short read as the whole value. A read of nothing
// succeeds, at the end of the message too, where bytes.Reader returns
// io.EOF: the library reads an empty string so, and would fail a message
// that ends with one.
type fullReader struct{ *bytes.Reader }

func (r *fullReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if n := r.Len(); n < len(p) {
		return 0, fmt.Errorf("alecthomas-binary: %d bytes wanted, %d left: %w", len(p), n, io.ErrUnexpectedEOF)
	}
	return r.Reader.Read(p)
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
