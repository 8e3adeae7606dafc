package evolve

import (
	"slices"
	"testing"

	"github.com/serbench/serbench/codec/all"
)

// The reflection rows are the built-in codecs whose adapters state what
// they match fields by (codec.FieldMatcher), in registry order; this list
// fails when an adapter loses or gains the statement.
func TestAllCodecsRows(t *testing.T) {
	var ids, schemas []string
	for _, c := range AllCodecs(all.Registry().All()) {
		ids = append(ids, c.ID)
		schemas = append(schemas, c.Schema)
	}
	want := []string{"encoding/json", "json-v2", "jsoniter", "go-json", "sonic", "segmentio-json", "msgpack", "cbor", "gob",
		"msgp", "protobuf", "flatbuffers", "wire", "wire/same-version"}
	if !slices.Equal(ids, want) {
		t.Errorf("rows %q, want %q", ids, want)
	}
	if len(schemas) > 8 && (schemas[0] != "json tags, by name" || schemas[7] != "cbor tags, by name" || schemas[8] != "Go field names") {
		t.Errorf("schemas %q", schemas)
	}
}
