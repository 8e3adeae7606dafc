// Package goavro adapts github.com/linkedin/goavro/v2, which encodes Apache
// Avro from and to its own "native" Go values: a record is a
// map[string]any, an array []any, a long int64, a timestamp a time.Time.
// It is a second Avro row beside codec/avro (hamba/avro), on the same
// schemas (codec/avro/schema). Like the codegen codecs, its Binding is a
// codec.Converter: turning a scenario value into native maps and back is
// the convert operation, timed on its own, outside marshal and unmarshal.
package goavro

import (
	"fmt"
	"reflect"

	"github.com/linkedin/goavro/v2"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/avro"
)

// ID is the codec's stable ID.
const ID = "goavro"

const module = "github.com/linkedin/goavro/v2"

// New returns goavro with a Codec per seed scenario, made from the schema
// at Bind (goavro.NewCodec). Avro has no unsigned integers: user-event's
// uint64 IDs travel as longs holding the same 64 bits (converted back
// exactly). A time.Time is a timestamp-micros long, so it keeps
// microseconds and decodes in UTC.
func New() codec.Codec { return linkedin{} }

type linkedin struct{}

func (linkedin) Info() codec.Info {
	return codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2026-01-14", // v2.15.0, the linked and newest version: go list -m -f {{.Time}} github.com/linkedin/goavro/v2

		API:    codec.APIAny,
		Format: "Avro", Kind: codec.Reflect, Binary: true,
		Time:    "µs, UTC forced (long with logicalType timestamp-micros)",
		Options: "goavro.NewCodec on codec/avro's .avsc schemas; scenario values converted to and from goavro's native map[string]any outside the timed loop (convert); uint64 as a long of the same bits"}
}

// Bind implements codec.Codec: it builds the goavro Codec of sample's
// type from its schema.
func (linkedin) Bind(sample any) (codec.Binding, error) {
	t := reflect.TypeOf(sample)
	conv, ok := convs[t]
	name, hasSchema := avro.SchemaFiles[t]
	if !ok || !hasSchema {
		return nil, codec.Unsupported(ID, "no Avro schema for %T in codec/avro/schema", sample)
	}
	text, err := avro.Schema(name)
	if err != nil {
		return nil, err
	}
	c, err := goavro.NewCodec(text)
	if err != nil {
		return nil, fmt.Errorf("goavro: %s: %w", name, err)
	}
	return &binding{c: c, conv: conv}, nil
}

// binding is the Binding and Converter of one scenario type.
type binding struct {
	c    *goavro.Codec
	conv conv
}

var (
	_ codec.Binding   = (*binding)(nil)
	_ codec.Converter = (*binding)(nil)
)

// Marshal encodes v, a native record from ToNative.
func (b *binding) Marshal(v any) ([]byte, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("goavro: Marshal wants a map[string]any from ToNative, got %T", v)
	}
	return b.c.BinaryFromNative(nil, m)
}

// Unmarshal decodes data into a native record, which FromNative accepts.
// Bytes left over after the record are an error.
func (b *binding) Unmarshal(data []byte) (any, error) {
	v, rest, err := b.c.NativeFromBinary(data)
	if err != nil {
		return nil, err
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("goavro: %d bytes left after the record", len(rest))
	}
	return v, nil
}

// ToNative implements codec.Converter.
func (b *binding) ToNative(v any) (any, error) { return b.conv.to(v) }

// FromNative implements codec.Converter.
func (b *binding) FromNative(v any) (any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("goavro: FromNative wants a map[string]any, got %T", v)
	}
	return b.conv.from(m)
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
