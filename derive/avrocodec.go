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
// (avro.Parse). A type with fields hamba/avro cannot take as the schema
// maps them (uint64 and uint, a time wrapper, an embedded time, a Go
// array other than [N]byte) goes through a mirror type built at Bind
// instead: its Bindings are then codec.Converters, the copy into the
// mirror and back being the convert operation, timed apart, and a uint64
// or uint of 2^63 or more fails that copy with one error naming the field
// and the value. Bind refuses a type DeriveAvro refuses
// (codec.ErrUnsupported, one line per field at fault).
func NewAvroCodec() codec.Codec { return avroCodec{} }

type avroCodec struct{ opts Options }

var _ codec.Codec = avroCodec{}

func (avroCodec) Info() codec.Info {
	return codec.Info{ID: AvroID, Module: avroModule, Version: codec.ModuleVersion(avroModule),
		API:    codec.APITyped,
		Unsafe: true, // hamba/avro imports package unsafe
		Format: "Avro", Kind: codec.Reflect, Binary: true,
		Time:    "µs, UTC forced (long with logicalType timestamp-micros)",
		Options: "schema derived from the Go type at Bind (package derive), parsed with avro.Parse; Config{TagKey: \"json\", MaxSliceAllocSize: 1 << 20}; uint64, uint, time wrappers and Go arrays through a mirror type, timed as convert"}
}

// Bind implements codec.Codec: it derives and parses the schema of
// sample's type.
func (c avroCodec) Bind(sample any) (codec.Binding, error) {
	t := reflect.TypeOf(sample)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return nil, codec.Unsupported(AvroID, "schemas are derived from structs, not %T", sample)
	}
	_, p, err := c.opts.deriveAvro(t.Elem())
	if err != nil {
		return nil, codec.Unsupported(AvroID, "%v", err)
	}
	if p.mirror == nil {
		return &avroBinding{schema: p.schema, elem: t.Elem()}, nil
	}
	return &avroMirrorBinding{avroBinding: avroBinding{schema: p.schema, elem: p.mirror.msgs[p.root].goT}, goT: t.Elem(), root: p.root, mirror: p.mirror}, nil
}

// avroMirrorBinding marshals a mirror of the Go value (avroMirror); the
// copy into it and back is the convert operation.
type avroMirrorBinding struct {
	avroBinding // on the mirror type
	goT         reflect.Type
	root        *msg
	mirror      *avroMirror
}

var (
	_ codec.Binding   = (*avroMirrorBinding)(nil)
	_ codec.Converter = (*avroMirrorBinding)(nil)
)

// ToNative copies a *T into a new value of its mirror type. Errors: a
// uint64 or uint of 2^63 or more, naming the field and the value.
func (b *avroMirrorBinding) ToNative(v any) (_ any, err error) {
	defer codec.RecoverEncode(&err, AvroID, v)
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Type().Elem() != b.goT || rv.IsNil() {
		return nil, fmt.Errorf("%s: ToNative wants a non-nil *%s, got %T", AvroID, b.goT, v)
	}
	out := reflect.New(b.elem)
	if err := b.mirror.to(out.Elem(), rv.Elem(), &typ{kind: kStruct, msg: b.root, goT: b.goT}, ""); err != nil {
		return nil, err
	}
	return out.Interface(), nil
}

// FromNative copies a value of the mirror type into a new *T.
func (b *avroMirrorBinding) FromNative(v any) (_ any, err error) {
	defer codec.RecoverEncode(&err, AvroID, v)
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Type().Elem() != b.elem || rv.IsNil() {
		return nil, fmt.Errorf("%s: FromNative wants a value from Unmarshal, got %T", AvroID, v)
	}
	out := reflect.New(b.goT)
	if err := b.mirror.from(out.Elem(), rv.Elem(), &typ{kind: kStruct, msg: b.root, goT: b.goT}, ""); err != nil {
		return nil, err
	}
	return out.Interface(), nil
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
