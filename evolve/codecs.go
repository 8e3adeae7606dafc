package evolve

import (
	"fmt"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/pick"
)

// reflectRows are the reflection codecs of the matrix and what each
// matches fields by.
var reflectRows = []struct{ id, schema string }{
	{"encoding/json", "json tags, by name"},
	{"json-v2", "json tags, by name"},
	{"jsoniter", "json tags, by name"},
	{"go-json", "json tags, by name"},
	{"sonic", "json tags, by name"},
	{"segmentio-json", "json tags, by name"},
	{"msgpack", "msgpack tags, by name"},
	{"cbor", "cbor tags, by name"},
	{"gob", "Go field names"},
}

// AllCodecs returns every row of the matrix, in report order: the
// reflection codecs (found with lookup, a codec registry's Lookup), then
// msgp, protobuf, flatbuffers, wire and wire/same-version. A reflection codec lookup does not
// know is an error naming it.
func AllCodecs(lookup func(id string) (codec.Codec, bool)) ([]Codec, error) {
	var out []Codec
	for _, r := range reflectRows {
		c, ok := lookup(r.id)
		if !ok {
			return nil, fmt.Errorf("evolve: codec %q is not in the registry", r.id)
		}
		out = append(out, ReflectCodec(c, r.schema))
	}
	return append(out, MsgpCodec(), ProtobufCodec(), FlatBuffersCodec(), WireCodec(), WireSameVersionCodec()), nil
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
