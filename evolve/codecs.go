package evolve

import (
	"fmt"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/pick"
)

// AllCodecs returns every row of the matrix, in report order: the
// reflection codecs of cs that state what they match fields by
// (codec.FieldMatcher: encoding/json, json-v2, jsoniter, go-json, sonic,
// segmentio-json, msgpack, cbor and gob among the built-in codecs), in the
// order of cs, then msgp, protobuf, flatbuffers, wire and
// wire/same-version.
func AllCodecs(cs []codec.Codec) []Codec {
	var out []Codec
	for _, c := range cs {
		if m, ok := c.(codec.FieldMatcher); ok {
			if by := m.MatchesFieldsBy(); by != "" {
				out = append(out, ReflectCodec(c, by))
			}
		}
	}
	return append(out, MsgpCodec(), ProtobufCodec(), FlatBuffersCodec(), WireCodec(), WireSameVersionCodec())
}

// SelectCodecs returns the rows of all named by ids, in the order given;
// nil or empty ids means all. Unknown IDs are one error naming them and
// the valid ones.
func SelectCodecs(all []Codec, ids []string) ([]Codec, error) {
	if len(ids) == 0 {
		return all, nil
	}
	out, err := pick.ByID(all, func(c Codec) string { return c.ID }, ids, "codec")
	if err != nil {
		return nil, fmt.Errorf("evolve: %w", err)
	}
	return out, nil
}
