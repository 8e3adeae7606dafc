// Package bson adapts go.mongodb.org/mongo-driver/v2/bson, the BSON
// encoder of MongoDB's Go driver: a self-describing binary format of
// length-prefixed documents whose fields are keyed by name.
package bson

import (
	"bytes"
	"reflect"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "bson"

const module = "go.mongodb.org/mongo-driver/v2"

// anyRegistry is the default registry with documents and arrays inside
// interfaces decoded as map[string]any and []any, what encoding/json gives,
// instead of the library's ordered bson.D and bson.A. (The type map does
// not reach the top-level document: Decoder.DefaultDocumentMap does.)
var anyRegistry = func() *bson.Registry {
	r := bson.NewRegistry()
	r.RegisterTypeMapEntry(bson.TypeEmbeddedDocument, reflect.TypeFor[map[string]any]())
	r.RegisterTypeMapEntry(bson.TypeArray, reflect.TypeFor[[]any]())
	return r
}()

// New returns bson with its defaults (bson.Marshal, bson.Unmarshal): struct
// fields are keyed by their lower-cased Go names (the library reads `bson`
// tags, not `json` ones); a time.Time is a BSON datetime, milliseconds since
// the epoch in UTC, so a time's sub-millisecond part and zone are lost; a
// uint64 above 2^63-1 does not fit a BSON int64 and fails to encode. Into a
// *any, documents and arrays decode as map[string]any and []any (a Decoder
// with DefaultDocumentMap and a registry whose type map says so).
func New() codec.Codec { return bsonCodec{} }

type bsonCodec struct{}

func (bsonCodec) Info() codec.Info {
	return codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2026-11-06", // v2.10.0, the linked and newest version: go list -m -f {{.Time}} go.mongodb.org/mongo-driver/v2

		API:    codec.APITyped,
		Format: "BSON", Kind: codec.Reflect, Binary: true,
		Time:    "ms, UTC forced (BSON datetime)",
		Options: "defaults (bson.Marshal/Unmarshal: fields keyed by lower-cased Go name; time.Time as a datetime in ms); into any: documents as map[string]any and arrays as []any (Decoder.DefaultDocumentMap, registry type map; default bson.D, bson.A)"}
}

// Bind implements codec.Codec.
func (c bsonCodec) Bind(sample any) (codec.Binding, error) {
	if _, ok := sample.(*any); ok {
		return codec.Funcs{Meta: c.Info(), Marshal: bson.Marshal, Unmarshal: unmarshalAny}.Bind(sample)
	}
	return codec.Funcs{Meta: c.Info(), Marshal: bson.Marshal, Unmarshal: bson.Unmarshal}.Bind(sample)
}

func unmarshalAny(data []byte, v any) error {
	d := bson.NewDecoder(bson.NewDocumentReader(bytes.NewReader(data)))
	d.SetRegistry(anyRegistry)
	d.DefaultDocumentMap()
	return d.Decode(v)
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
