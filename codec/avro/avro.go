// Package avro adapts github.com/hamba/avro/v2, which encodes Go values in
// Apache Avro's binary encoding against a schema parsed at run time. The
// schemas, one per seed scenario, are the .avsc files under schema/ (also
// used by codec/goavro); record field names are the scenario types' `json`
// tags. Avro's binary encoding carries no field names or type tags: the
// reader needs the writer's schema.
package avro

import (
	"embed"
	"fmt"
	"reflect"

	"github.com/hamba/avro/v2"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

// ID is the codec's stable ID.
const ID = "avro"

const module = "github.com/hamba/avro/v2"

//go:embed schema/*.avsc
var files embed.FS

// SchemaFiles maps each scenario type that has an Avro schema to its file
// under schema/ (named after the scenario ID).
var SchemaFiles = map[reflect.Type]string{
	reflect.TypeFor[*scenario.SSEEvent]():    "sse-event.avsc",
	reflect.TypeFor[*scenario.UserEvent]():   "user-event.avsc",
	reflect.TypeFor[*scenario.WSMessage]():   "ws-message.avsc",
	reflect.TypeFor[*scenario.Annotation]():  "annotation.avsc",
	reflect.TypeFor[*scenario.UserProfile](): "user-profile.avsc",
}

// Schema returns the text of the schema file name under schema/, or an
// error if there is none.
func Schema(name string) (string, error) {
	b, err := files.ReadFile("schema/" + name)
	if err != nil {
		return "", fmt.Errorf("avro: schema %q: %w", name, err)
	}
	return string(b), nil
}

// api is hamba/avro configured to read the scenario types' `json` tags;
// the rest are the library's defaults (among them a 1 MiB limit on a
// decoded string or bytes value).
var api = avro.Config{TagKey: "json"}.Freeze()

// New returns hamba/avro with a schema per seed scenario. A time.Time is a
// long with the timestamp-micros logical type, so it keeps microseconds
// and decodes in UTC. The library has no Go uint64 mapping (an Avro long is
// signed), so user-event, whose IDs are uint64, is not supported.
func New() codec.Codec { return hamba{} }

type hamba struct{}

func (hamba) Info() codec.Info {
	return codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2025-12-30", // v2.31.0, the linked and newest version: go list -m -f {{.Time}} github.com/hamba/avro/v2

		API:    codec.APITyped,
		Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
		Format: "Avro", Kind: codec.Reflect, Binary: true,
		Time:    "µs, UTC forced (long with logicalType timestamp-micros)",
		Options: "Config{TagKey: \"json\"}; one .avsc schema per seed scenario (codec/avro/schema), parsed at Bind; no Go uint64 mapping (user-event n/a)"}
}

// Bind implements codec.Codec: it parses the schema of sample's type.
func (c hamba) Bind(sample any) (codec.Binding, error) { return c.BindNew(sample, nil) }

// BindNew implements codec.NewBinder: Bind whose Unmarshal decodes into
// newValue's values.
func (hamba) BindNew(sample any, newValue func() any) (codec.Binding, error) {
	t := reflect.TypeOf(sample)
	if t == reflect.TypeFor[*scenario.UserEvent]() {
		return nil, codec.Unsupported(ID, "%T has uint64 fields, which hamba/avro maps to no Avro type (an Avro long is signed)", sample)
	}
	name, ok := SchemaFiles[t]
	if !ok {
		return nil, codec.Unsupported(ID, "no Avro schema for %T in codec/avro/schema", sample)
	}
	text, err := Schema(name)
	if err != nil {
		return nil, err
	}
	s, err := avro.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("avro: parsing %s: %w", name, err)
	}
	return &binding{schema: s, newValue: codec.NewValue(t.Elem(), newValue)}, nil
}

type binding struct {
	schema   avro.Schema
	newValue func() any
}

func (b *binding) Marshal(v any) ([]byte, error) { return api.Marshal(b.schema, v) }

func (b *binding) Unmarshal(data []byte) (any, error) {
	p := b.newValue()
	if err := api.Unmarshal(b.schema, data, p); err != nil {
		return nil, err
	}
	return p, nil
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
