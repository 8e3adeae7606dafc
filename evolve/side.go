package evolve

import (
	"fmt"

	"github.com/serbench/serbench/codec"
)

// Side is one version of the order type as one codec writes and reads it.
type Side struct {
	// Fields are the field meanings the version has (sorted).
	Fields []string
	// Encode writes r, a value of this version.
	Encode func(r Record) ([]byte, error)
	// Decode reads data as this version. It returns the value read and a
	// function that encodes that same decoded value (not its Record) again,
	// so that whatever the codec kept of fields it did not know is written
	// back (protobuf's unknown fields).
	Decode func(data []byte) (r Record, again func() ([]byte, error), err error)
}

// Codec is one row of the matrix: a codec and how it describes the two
// versions.
type Codec struct {
	// ID is the codec's ID (docs/reference.md, "Codecs"), or a variant of
	// this package ("wire/same-version").
	ID string `json:"id"`
	// Schema says how the versions are described ("struct tags (json)",
	// ".proto field numbers", ...).
	Schema string `json:"schema"`
	// Sides returns the codec's v1 and v2 of change c.
	Sides func(c Change) (v1, v2 Side, err error) `json:"-"`
}

// ReflectCodec returns the row of a reflection codec of the registry
// (encoding/json, msgpack, gob, ...): v1 is Order, v2 the change's Go
// struct, each with its struct tags. schema describes what the codec
// matches fields by.
func ReflectCodec(c codec.Codec, schema string) Codec {
	id := c.Info().ID
	return Codec{ID: id, Schema: schema, Sides: func(ch Change) (Side, Side, error) {
		v1, err := reflectSide(c, func() any { return new(Order) })
		if err != nil {
			return Side{}, Side{}, err
		}
		v2, err := reflectSide(c, ch.newV2)
		return v1, v2, err
	}}
}

func reflectSide(c codec.Codec, newT func() any) (Side, error) {
	b, err := c.Bind(newT())
	if err != nil {
		return Side{}, fmt.Errorf("evolve: codec %s: %w", c.Info().ID, err)
	}
	return Side{
		Fields: fieldsOf(newT()),
		Encode: func(r Record) ([]byte, error) {
			v := newT()
			if err := fillFrom(v, r); err != nil {
				return nil, err
			}
			return b.Marshal(v)
		},
		Decode: func(data []byte) (Record, func() ([]byte, error), error) {
			v, err := b.Unmarshal(data)
			if err != nil {
				return nil, nil, err
			}
			r, err := recordOf(v)
			return r, func() ([]byte, error) { return b.Marshal(v) }, err
		},
	}, nil
}
