// Package twmbavro adapts github.com/twmb/avro, which encodes Go values in
// Apache Avro's binary encoding against a schema parsed at run time. It is
// a third Avro row beside codec/avro (hamba/avro) and codec/goavro, on the
// same schemas (codec/avro/schema).
//
// twmb/avro maps record fields to struct fields by the `avro` tag or the Go
// field name, and the seed scenario types carry `json` tags only. Avro's
// binary encoding holds no field names, so Bind renames each record field
// of the schema to the Go field whose `json` tag names it (GoNames): the
// same Avro schema, so hamba/avro reads what it writes and the other way
// round. Its bytes are not hamba's byte for byte: hamba writes array and
// map blocks with their size in bytes (a negative count and a size, which
// the Avro specification allows), twmb/avro plain counts.
package twmbavro

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/twmb/avro"

	"github.com/serbench/serbench/codec"
	avroschema "github.com/serbench/serbench/codec/avro"
)

// ID is the codec's stable ID.
const ID = "twmb-avro"

const module = "github.com/twmb/avro"

// New returns twmb/avro with a schema per seed scenario, parsed at Bind.
// A time.Time is a long with the timestamp-micros logical type, so it
// keeps microseconds and decodes in UTC. A Go uint64 encodes into a long
// only when it is at most 2^63-1 (the library's range check), so
// user-event, whose IDs are above it, fails to marshal with the library's
// error.
func New() codec.Codec { return twmb{} }

type twmb struct{}

func (twmb) Info() codec.Info {
	return codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2026-11-08", // v1.9.1, the linked and newest version: go list -m -f {{.Time}} github.com/twmb/avro

		API:    codec.APITyped,
		Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
		Format: "Avro", Kind: codec.Reflect, Binary: true,
		Time:    "µs, UTC forced (long with logicalType timestamp-micros)",
		Options: "codec/avro's .avsc schemas with record fields renamed to the Go field names (GoNames: the same schema), parsed at Bind; array and map blocks without byte sizes; a uint64 above 2^63-1 fails to marshal (user-event)"}
}

// Bind implements codec.Codec: it parses the schema of sample's type,
// renamed to its Go field names.
func (c twmb) Bind(sample any) (codec.Binding, error) { return c.BindNew(sample, nil) }

// BindNew implements codec.NewBinder: Bind whose Unmarshal decodes into
// newValue's values.
func (twmb) BindNew(sample any, newValue func() any) (codec.Binding, error) {
	t := reflect.TypeOf(sample)
	name, ok := avroschema.SchemaFiles[t]
	if !ok {
		return nil, codec.Unsupported(ID, "no Avro schema for %T in codec/avro/schema", sample)
	}
	text, err := avroschema.Schema(name)
	if err != nil {
		return nil, err
	}
	if text, err = GoNames(text, t); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", ID, name, err)
	}
	s, err := avro.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("%s: parsing %s: %w", ID, name, err)
	}
	return &binding{schema: s, newValue: codec.NewValue(t.Elem(), newValue)}, nil
}

type binding struct {
	schema   *avro.Schema
	newValue func() any
}

func (b *binding) Marshal(v any) ([]byte, error) { return b.schema.Encode(v) }

func (b *binding) Unmarshal(data []byte) (any, error) {
	p := b.newValue()
	rest, err := b.schema.Decode(data, p)
	if err != nil {
		return nil, err
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("%s: %d bytes after the value", ID, len(rest))
	}
	return p, nil
}

// GoNames returns the Avro schema text with the name of every record
// field replaced by the name of the Go struct field of t (a struct or a
// pointer to one, followed through slices, maps, arrays and pointers as
// the schema's arrays, maps and unions go) whose `json` tag names it. It
// handles records, arrays, maps, unions and primitives written inline, as
// codec/avro's schemas are; a record given by name only (a reference to
// one defined elsewhere) is an error, as is a field no Go field is tagged
// with.
func GoNames(text string, t reflect.Type) (string, error) {
	var s any
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		return "", fmt.Errorf("schema: %w", err)
	}
	if err := rename(s, t, "$"); err != nil {
		return "", err
	}
	out, err := json.Marshal(s)
	if err != nil {
		return "", fmt.Errorf("schema: %w", err)
	}
	return string(out), nil
}

// rename renames the record fields of schema s, at path in the schema, to
// the Go names of t's fields.
func rename(s any, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch s := s.(type) {
	case []any: // a union: each branch against the same Go type
		for i, branch := range s {
			if err := rename(branch, t, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	case map[string]any:
		switch s["type"] {
		case "record":
			return renameRecord(s, t, path)
		case "array":
			if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
				return fmt.Errorf("%s: an array against Go %s", path, t)
			}
			return rename(s["items"], t.Elem(), path+".items")
		case "map":
			if t.Kind() != reflect.Map {
				return fmt.Errorf("%s: a map against Go %s", path, t)
			}
			return rename(s["values"], t.Elem(), path+".values")
		}
		return nil // a primitive with attributes (logicalType)
	case string:
		switch s {
		case "null", "boolean", "int", "long", "float", "double", "bytes", "string":
			return nil
		}
		return fmt.Errorf("%s: named type %q: only inline definitions are renamed", path, s)
	}
	return fmt.Errorf("%s: not a schema: %v", path, s)
}

func renameRecord(s map[string]any, t reflect.Type, path string) error {
	if t.Kind() != reflect.Struct {
		return fmt.Errorf("%s: a record against Go %s", path, t)
	}
	fields, _ := s["fields"].([]any)
	for i, f := range fields {
		field, ok := f.(map[string]any)
		name, _ := field["name"].(string)
		if !ok || name == "" {
			return fmt.Errorf("%s.fields[%d]: no name", path, i)
		}
		sf, ok := fieldByJSON(t, name)
		if !ok {
			return fmt.Errorf("%s.fields[%d]: no field of Go %s has json tag %q", path, i, t, name)
		}
		field["name"] = sf.Name
		if err := rename(field["type"], sf.Type, path+"."+name); err != nil {
			return err
		}
	}
	return nil
}

// fieldByJSON returns t's field whose `json` tag names name.
func fieldByJSON(t reflect.Type, name string) (reflect.StructField, bool) {
	for sf := range t.Fields() {
		tag, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if tag == name {
			return sf, true
		}
	}
	return reflect.StructField{}, false
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
