// Package gob adapts the standard library's encoding/gob.
//
// A gob stream sends each type's descriptor once, the first time a value of
// that type goes through an Encoder. serbench's codecs encode standalone
// messages (one HTTP body, one cache entry, one queue message), so this
// adapter makes a new Encoder per message, as a user sending standalone
// messages must: every message carries its type descriptors, and every
// Unmarshal reads them again. That is what makes gob messages large and slow
// here; a long-lived stream amortises it, which the gob/stream variant
// (NewStream) measures.
package gob

import (
	"bytes"
	"encoding/gob"
	"sync"

	"github.com/serbench/serbench/codec"
)

var registerOnce sync.Once

// register registers what JSON-like values hold in interfaces.
func register() {
	gob.Register(map[string]any{})
	gob.Register([]any{})
}

// ID is the codec's stable ID.
const ID = "gob"

// New returns gob with a new Encoder and Decoder per message. It registers
// map[string]any and []any with gob.Register, as a user decoding JSON-like
// values into interfaces must, so gob can carry what JSON decodes into any.
func New() codec.Codec {
	registerOnce.Do(register)
	return codec.Funcs{
		Meta: codec.Info{ID: ID, Module: "std", Version: codec.ModuleVersion("std"),
			API:    codec.APITyped,
			Format: "gob", Kind: codec.Reflect, Binary: true,
			Options: "new Encoder/Decoder per message (type descriptors in every message); map[string]any and []any registered",
			Time:    "ns, time.Time's MarshalBinary: offset kept, zone name lost; any year", Default: true},
		Marshal: func(v any) ([]byte, error) {
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(v); err != nil {
				return nil, err
			}
			return buf.Bytes(), nil
		},
		Unmarshal: func(data []byte, v any) error {
			return gob.NewDecoder(bytes.NewReader(data)).Decode(v)
		},
		Code: &codec.GoCode{Imports: []string{"bytes", "encoding/gob"},
			Setup: "func init() {\n\tgob.Register(map[string]any{})\n\tgob.Register([]any{})\n}",
			Marshal: `func(v any) ([]byte, error) {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(v); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}`,
			Unmarshal: "func(data []byte, v any) error { return gob.NewDecoder(bytes.NewReader(data)).Decode(v) }"},
		FieldsBy: "Go field names",
	}
}

// Codecs returns a new instance of each codec this package ships, in
// report order (codec/all holds every shipped codec, codec/defaults the
// default set).
func Codecs() []codec.Codec { return []codec.Codec{New(), NewStream()} }
