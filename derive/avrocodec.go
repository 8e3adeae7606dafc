package derive

import (
	"fmt"
	"reflect"

	"github.com/hamba/avro/v2"

	"github.com/serbench/serbench/codec"
)

// AvroID is the ID of NewAvroCodec's codec.
const AvroID = "avro/derived"

const avroModule = "github.com/hamba/avro/v2"

// MaxAvroElements caps the elements of one decoded Avro array for
// avro/derived: 1,048,576 (hamba/avro's Config.MaxSliceAllocSize, which
// counts elements; its default is the largest allocation the heap allows,
// so a few bytes claiming a huge array would exhaust memory). More is the
// library's error "size is greater than `Config.MaxSliceAllocSize`".
const MaxAvroElements = 1 << 20

// avroAPI is hamba/avro reading json tags, as DeriveAvro names fields,
// with MaxAvroElements; the rest are the library's defaults (among them a
// 1 MiB limit on a decoded string or bytes value).
var avroAPI = avro.Config{TagKey: "json", MaxSliceAllocSize: MaxAvroElements}.Freeze()

// NewAvroCodec returns the codec "avro/derived": github.com/hamba/avro/v2
// marshalling the user's own Go value (no conversion) against the schema
// DeriveAvro derives from the sample's type at Bind, parsed by hamba/avro
// (avro.Parse). Bind refuses a type DeriveAvro cannot map
// (codec.ErrUnsupported, one line per field at fault); a Go type
// hamba/avro has no mapping for (uint64, uint, a Go array other than
// [N]byte) fails at the first marshal with the library's own error.
func NewAvroCodec() codec.Codec { return avroCodec{} }

type avroCodec struct{ opts Options }

var _ codec.Codec = avroCodec{}

func (avroCodec) Info() codec.Info {
	return codec.Info{ID: AvroID, Module: avroModule, Version: codec.ModuleVersion(avroModule),
		API:    codec.APITyped,
		Unsafe: true, // hamba/avro imports package unsafe
		Format: "Avro", Kind: codec.Reflect, Binary: true,
		Time:    "µs, UTC forced (long with logicalType timestamp-micros)",
		Options: "schema derived from the Go type at Bind (package derive), parsed with avro.Parse; Config{TagKey: \"json\", MaxSliceAllocSize: 1 << 20}; no Go uint64 mapping"}
}

// Bind implements codec.Codec: it derives and parses the schema of
// sample's type.
func (c avroCodec) Bind(sample any) (codec.Binding, error) {
	t := reflect.TypeOf(sample)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return nil, codec.Unsupported(AvroID, "schemas are derived from structs, not %T", sample)
	}
	s, err := c.opts.DeriveAvro(t.Elem())
	if err != nil {
		return nil, codec.Unsupported(AvroID, "%v", err)
	}
	parsed, err := avro.ParseWithCache(s.Text, "", &avro.SchemaCache{})
	if err != nil {
		return nil, fmt.Errorf("%s: hamba/avro does not parse the schema derived from %s: %w", AvroID, t.Elem(), err)
	}
	return &avroBinding{schema: parsed, elem: t.Elem()}, nil
}

type avroBinding struct {
	schema avro.Schema
	elem   reflect.Type
}

func (b *avroBinding) Marshal(v any) (_ []byte, err error) {
	defer codec.RecoverEncode(&err, AvroID, v)
	return avroAPI.Marshal(b.schema, v)
}

func (b *avroBinding) Unmarshal(data []byte) (_ any, err error) {
	defer codec.RecoverDecode(&err, AvroID, data)
	p := reflect.New(b.elem).Interface()
	if err := avroAPI.Unmarshal(b.schema, data, p); err != nil {
		return nil, err
	}
	return p, nil
}

// LossAt returns the loss of the schema derived from sample's type that
// explains a difference at path (Schema.LossAt).
func (c avroCodec) LossAt(sample any, path string) (Loss, bool) {
	return c.opts.lossAt(Avro, sample, path)
}

// Losses returns the lossy mappings of the schema derived from sample's
// type (Schema.Losses); nil when none can be derived.
func (c avroCodec) Losses(sample any) []Loss {
	return c.opts.losses(Avro, sample)
}
