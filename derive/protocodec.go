package derive

import (
	"errors"
	"fmt"
	"reflect"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/serbench/serbench/codec"
)

// ProtoID is the ID of NewProtoCodec's codec.
const ProtoID = "protobuf/derived"

const protoModule = "google.golang.org/protobuf"

// NewProtoCodec returns the codec "protobuf/derived": proto.Marshal and
// proto.Unmarshal with default options on a dynamicpb.Message of the
// descriptor DeriveProto derives from the sample's type at Bind, so a
// user's type goes through protobuf with no .proto written and no code
// generated. Its Bindings are codec.Converters: the conversion between
// the Go value and the dynamicpb.Message (by reflection, field by field)
// is the convert operation, timed apart from marshal and unmarshal as for
// the generated protobuf codec. Bind refuses a type DeriveProto cannot map
// (codec.ErrUnsupported, one line per field at fault).
func NewProtoCodec() codec.Codec { return protoCodec{} }

type protoCodec struct{ opts Options }

var _ codec.Codec = protoCodec{}

func (protoCodec) Info() codec.Info {
	return codec.Info{ID: ProtoID, Module: protoModule, Version: codec.ModuleVersion(protoModule),
		API:    codec.APITyped,
		Unsafe: true, // google.golang.org/protobuf imports package unsafe
		Format: "Protocol Buffers", Kind: codec.Reflect, Binary: true,
		Time: "ns, google.protobuf.Timestamp: instant kept, UTC forced (offset and zone name lost)",
		Options: "schema derived from the Go type at Bind (package derive), no code generated; dynamicpb.Message; " +
			"proto.Marshal/proto.Unmarshal with default options; Go value to and from dynamicpb timed as convert"}
}

// Bind implements codec.Codec: it derives the schema of sample's type.
func (c protoCodec) Bind(sample any) (codec.Binding, error) {
	t, ps, err := c.opts.deriveSample(ProtoID, sample)
	if err != nil {
		return nil, err
	}
	root := newMsgConv(ps.root, ps.File, map[*msg]*msgConv{})
	return &protoBinding{id: ProtoID, goT: t, root: root,
		newMsg:  func() proto.Message { return dynamicpb.NewMessage(root.desc) },
		marshal: proto.Marshal, unmarshal: proto.Unmarshal}, nil
}

// deriveSample derives the proto schema of sample, a pointer to a struct.
func (o Options) deriveSample(id string, sample any) (reflect.Type, *ProtoSchema, error) {
	t := reflect.TypeOf(sample)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return nil, nil, codec.Unsupported(id, "schemas are derived from structs, not %T", sample)
	}
	ps, err := o.DeriveProto(t.Elem())
	if err != nil {
		return nil, nil, codec.Unsupported(id, "%v", err)
	}
	return t.Elem(), ps, nil
}

// CheckGenerated returns nil when desc, a root message protoc-gen-go
// generated, has the fields of the schema DeriveProto derives from struct
// type t now (number, name, kind, cardinality, presence, message by
// message); otherwise an error naming the first difference, which means
// the generated code is stale, or DeriveProto's error.
func CheckGenerated(t reflect.Type, desc protoreflect.MessageDescriptor) error {
	return Options{}.CheckGenerated(t, desc)
}

// CheckGenerated is the package's CheckGenerated with o.
func (o Options) CheckGenerated(t reflect.Type, desc protoreflect.MessageDescriptor) error {
	ps, err := o.DeriveProto(t)
	if err != nil {
		return err
	}
	if err := sameFields(ps.Message, desc, map[protoreflect.FullName]bool{}); err != nil {
		return fmt.Errorf("%s was not generated from the schema derived from %s now (%w)", desc.FullName(), t, err)
	}
	return nil
}

// sameFields reports the first difference between the derived message d
// and the generated g, nil when they have the same fields.
func sameFields(d, g protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool) error {
	if d.FullName() != g.FullName() {
		return fmt.Errorf("message %s, generated %s", d.FullName(), g.FullName())
	}
	if seen[d.FullName()] {
		return nil
	}
	seen[d.FullName()] = true
	if d.Fields().Len() != g.Fields().Len() {
		return fmt.Errorf("%s has %d fields, generated %d", d.FullName(), d.Fields().Len(), g.Fields().Len())
	}
	for i := range d.Fields().Len() {
		df, gf := d.Fields().Get(i), g.Fields().Get(i)
		if df.Number() != gf.Number() || df.Name() != gf.Name() || df.Kind() != gf.Kind() ||
			df.Cardinality() != gf.Cardinality() || df.HasPresence() != gf.HasPresence() || df.IsMap() != gf.IsMap() {
			return fmt.Errorf("field %s differs from the generated %s", df.FullName(), gf.FullName())
		}
		switch {
		case df.IsMap():
			if df.MapKey().Kind() != gf.MapKey().Kind() || df.MapValue().Kind() != gf.MapValue().Kind() {
				return fmt.Errorf("map %s differs from the generated %s", df.FullName(), gf.FullName())
			}
			if df.MapValue().Message() != nil {
				if err := sameFields(df.MapValue().Message(), gf.MapValue().Message(), seen); err != nil {
					return err
				}
			}
		case df.Message() != nil:
			if err := sameFields(df.Message(), gf.Message(), seen); err != nil {
				return err
			}
		}
	}
	return nil
}

// msgConv converts between one struct type and its message.
type msgConv struct {
	desc   protoreflect.MessageDescriptor
	fields []fieldConv
}

type fieldConv struct {
	fd protoreflect.FieldDescriptor
	f  *field
	// sub converts the message of a struct field or element, nil for others.
	sub *msgConv
}

// newMsgConv builds the conversion of x, whose descriptor is in file.
func newMsgConv(x *msg, file protoreflect.FileDescriptor, convs map[*msg]*msgConv) *msgConv {
	if c, ok := convs[x]; ok {
		return c
	}
	c := &msgConv{desc: file.Messages().ByName(protoreflect.Name(x.name))}
	convs[x] = c
	for i, f := range x.fields {
		fc := fieldConv{fd: c.desc.Fields().ByNumber(protoreflect.FieldNumber(i + 1)), f: f}
		if s := structOf(f.typ); s != nil {
			fc.sub = newMsgConv(s, file, convs)
		}
		c.fields = append(c.fields, fc)
	}
	return c
}

// structOf returns the struct message of a field's type, its element's
// or its pointer's, nil when there is none.
func structOf(t *typ) *msg {
	for t != nil {
		if t.kind == kStruct {
			return t.msg
		}
		t = t.elem
	}
	return nil
}

type protoBinding struct {
	id     string
	goT    reflect.Type
	root   *msgConv
	newMsg func() proto.Message // a new message of root.desc
	// marshal and unmarshal encode and decode a message of root.desc.
	marshal   func(proto.Message) ([]byte, error)
	unmarshal func([]byte, proto.Message) error
}

var (
	_ codec.Binding   = (*protoBinding)(nil)
	_ codec.Converter = (*protoBinding)(nil)
)

// ToNative converts a *T to a new message.
func (b *protoBinding) ToNative(v any) (_ any, err error) {
	defer codec.RecoverEncode(&err, b.id, v)
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Type().Elem() != b.goT || rv.IsNil() {
		return nil, fmt.Errorf("%s: ToNative wants a non-nil *%s, got %T", b.id, b.goT, v)
	}
	m := b.newMsg()
	b.root.toPB(rv.Elem(), m.ProtoReflect())
	return m, nil
}

// FromNative converts a message to a new *T.
func (b *protoBinding) FromNative(v any) (_ any, err error) {
	defer codec.RecoverEncode(&err, b.id, v)
	m, ok := v.(proto.Message)
	if !ok || m == nil || m.ProtoReflect().Descriptor() != b.root.desc {
		return nil, fmt.Errorf("%s: FromNative wants a %s message, got %T", b.id, b.root.desc.FullName(), v)
	}
	out := reflect.New(b.goT)
	if err := b.root.fromPB(m.ProtoReflect(), out.Elem()); err != nil {
		return nil, fmt.Errorf("%s: %w", b.id, err)
	}
	return out.Interface(), nil
}

// Marshal encodes a message from ToNative.
func (b *protoBinding) Marshal(v any) ([]byte, error) {
	m, ok := v.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("%s: Marshal wants a message from ToNative, got %T", b.id, v)
	}
	return b.marshal(m)
}

// Unmarshal decodes data into a new message for FromNative.
func (b *protoBinding) Unmarshal(data []byte) (_ any, err error) {
	defer codec.RecoverDecode(&err, b.id, data)
	m := b.newMsg()
	if err := b.unmarshal(data, m); err != nil {
		return nil, fmt.Errorf("%s: %w", b.id, err)
	}
	return m, nil
}

// toPB sets m's fields from struct v.
func (c *msgConv) toPB(v reflect.Value, m protoreflect.Message) {
	for i := range c.fields {
		fc := &c.fields[i]
		fv, err := v.FieldByIndexErr(fc.f.index)
		if err != nil {
			continue // a nil embedded pointer: its fields are absent
		}
		fc.set(m, fc.fd, fc.f.typ, fv)
	}
}

// set sets field fd of m from Go value fv of type t: nothing for an empty
// slice or map, a nil pointer or a zero time.
func (fc *fieldConv) set(m protoreflect.Message, fd protoreflect.FieldDescriptor, t *typ, fv reflect.Value) {
	switch t.kind {
	case kSlice, kArray:
		if fv.Len() == 0 {
			return
		}
		l := m.Mutable(fd).List()
		for i := range fv.Len() {
			l.Append(fc.value(t.elem, fv.Index(i), l.NewElement))
		}
	case kMap:
		if fv.Len() == 0 {
			return
		}
		mp := m.Mutable(fd).Map()
		it := fv.MapRange()
		for it.Next() {
			mp.Set(scalarPB(t.key, it.Key()).MapKey(), fc.value(t.elem, it.Value(), mp.NewValue))
		}
	case kPtr:
		if !fv.IsNil() {
			m.Set(fd, fc.value(t, fv, func() protoreflect.Value { return m.NewField(fd) }))
		}
	case kTime:
		if !timeOf(fv).IsZero() {
			m.Set(fd, fc.value(t, fv, func() protoreflect.Value { return m.NewField(fd) }))
		}
	default:
		m.Set(fd, fc.value(t, fv, func() protoreflect.Value { return m.NewField(fd) }))
	}
}

// value is Go value v of type t as a singular protobuf value; newMsg
// makes the message for a struct, a time or a pointer to one.
func (fc *fieldConv) value(t *typ, v reflect.Value, newMsg func() protoreflect.Value) protoreflect.Value {
	if t.kind == kPtr {
		if v.IsNil() { // an element of a list or map: an empty message or a zero scalar
			if k := t.elem.kind; k == kStruct || k == kTime {
				return newMsg()
			}
			return scalarPB(t.elem, reflect.Zero(t.elem.goT))
		}
		t, v = t.elem, v.Elem()
	}
	switch t.kind {
	case kStruct:
		pv := newMsg()
		fc.sub.toPB(v, pv.Message())
		return pv
	case kSlice, kArray, kMap: // a list or map in a list or map: its wrapper message
		pv := newMsg()
		w := pv.Message()
		fc.set(w, w.Descriptor().Fields().ByNumber(1), t, v)
		return pv
	case kTime:
		pv := newMsg()
		tm := timeOf(v)
		ts := pv.Message()
		ts.Set(ts.Descriptor().Fields().ByNumber(1), protoreflect.ValueOfInt64(tm.Unix()))
		ts.Set(ts.Descriptor().Fields().ByNumber(2), protoreflect.ValueOfInt32(int32(tm.Nanosecond())))
		return pv
	}
	return scalarPB(t, v)
}

// scalarPB is Go scalar v of type t as a protobuf value.
func scalarPB(t *typ, v reflect.Value) protoreflect.Value {
	switch t.kind {
	case kBool:
		return protoreflect.ValueOfBool(v.Bool())
	case kString:
		return protoreflect.ValueOfString(v.String())
	case kBytes:
		if t.fix > 0 {
			b := make([]byte, t.fix)
			reflect.Copy(reflect.ValueOf(b), v)
			return protoreflect.ValueOfBytes(b)
		}
		return protoreflect.ValueOfBytes(v.Bytes())
	case kInt, kDuration:
		if t.bits == 64 || t.kind == kDuration {
			return protoreflect.ValueOfInt64(v.Int())
		}
		return protoreflect.ValueOfInt32(int32(v.Int()))
	case kUint:
		if t.bits == 64 {
			return protoreflect.ValueOfUint64(v.Uint())
		}
		return protoreflect.ValueOfUint32(uint32(v.Uint()))
	case kFloat:
		if t.bits == 32 {
			return protoreflect.ValueOfFloat32(float32(v.Float()))
		}
		return protoreflect.ValueOfFloat64(v.Float())
	}
	panic(fmt.Sprintf("derive: no protobuf scalar for %s", t.goT)) // DeriveProto maps no other kind here
}

// fromPB sets struct v's fields from m.
func (c *msgConv) fromPB(m protoreflect.Message, v reflect.Value) error {
	for i := range c.fields {
		fc := &c.fields[i]
		if !m.Has(fc.fd) {
			continue
		}
		if err := fc.get(m.Get(fc.fd), fc.f.typ, fieldAlloc(v, fc.f.index)); err != nil {
			return err
		}
	}
	return nil
}

// get sets fv, of type t, from pv, the value of a field that is set.
func (fc *fieldConv) get(pv protoreflect.Value, t *typ, fv reflect.Value) error {
	switch t.kind {
	case kSlice, kArray:
		l := pv.List()
		n := l.Len()
		if t.kind == kArray {
			if n > t.fix {
				return fmt.Errorf("%s: %d elements for a %s", fc.f.path, n, t.goT)
			}
		} else {
			fv.Set(reflect.MakeSlice(t.goT, n, n))
		}
		for i := range n {
			if err := fc.goValue(t.elem, l.Get(i), fv.Index(i)); err != nil {
				return err
			}
		}
	case kMap:
		mp := pv.Map()
		out := reflect.MakeMapWithSize(t.goT, mp.Len())
		var err error
		mp.Range(func(k protoreflect.MapKey, x protoreflect.Value) bool {
			kv, ev := reflect.New(t.key.goT).Elem(), reflect.New(t.elem.goT).Elem()
			if err = fc.goValue(t.key, k.Value(), kv); err != nil {
				return false
			}
			if err = fc.goValue(t.elem, x, ev); err != nil {
				return false
			}
			out.SetMapIndex(kv, ev)
			return true
		})
		if err != nil {
			return err
		}
		fv.Set(out)
	default:
		return fc.goValue(t, pv, fv)
	}
	return nil
}

// goValue sets dst, of type t, from the singular protobuf value pv.
func (fc *fieldConv) goValue(t *typ, pv protoreflect.Value, dst reflect.Value) error {
	switch t.kind {
	case kPtr:
		p := reflect.New(t.elem.goT)
		if err := fc.goValue(t.elem, pv, p.Elem()); err != nil {
			return err
		}
		dst.Set(p)
	case kStruct:
		return fc.sub.fromPB(pv.Message(), dst)
	case kSlice, kArray, kMap: // a list or map in a list or map: its wrapper message
		w := pv.Message()
		if fd := w.Descriptor().Fields().ByNumber(1); w.Has(fd) {
			return fc.get(w.Get(fd), t, dst)
		}
	case kTime:
		ts := pv.Message()
		sec := ts.Get(ts.Descriptor().Fields().ByNumber(1)).Int()
		nsec := ts.Get(ts.Descriptor().Fields().ByNumber(2)).Int()
		setTime(dst, time.Unix(sec, nsec).UTC())
	case kBool:
		dst.SetBool(pv.Bool())
	case kString:
		dst.SetString(pv.String())
	case kBytes:
		b := pv.Bytes()
		if t.fix > 0 {
			if len(b) > t.fix {
				return fmt.Errorf("%d bytes for a %s", len(b), t.goT)
			}
			reflect.Copy(dst, reflect.ValueOf(b))
		} else if len(b) > 0 {
			dst.SetBytes(b)
		}
	case kInt, kDuration:
		dst.SetInt(pv.Int())
	case kUint:
		dst.SetUint(pv.Uint())
	case kFloat:
		dst.SetFloat(pv.Float())
	default:
		return errors.New("derive: no Go value for " + t.goT.String()) // DeriveProto maps no other kind
	}
	return nil
}

// fieldAlloc returns the field of struct v at index, allocating the nil
// embedded pointers on the way.
func fieldAlloc(v reflect.Value, index []int) reflect.Value {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v
}

// LossAt returns the loss of the schema derived from sample's type that
// explains a difference at path (Schema.LossAt).
func (c protoCodec) LossAt(sample any, path string) (Loss, bool) {
	return c.opts.lossAt(Proto, sample, path)
}

// lossAt derives the schema of sample's type in format f and looks path
// up in its losses.
func (o Options) lossAt(f Format, sample any, path string) (Loss, bool) {
	t := reflect.TypeOf(sample)
	if t == nil {
		return Loss{}, false
	}
	s, err := o.Derive(t, f)
	if err != nil {
		return Loss{}, false
	}
	return s.LossAt(path)
}

// Losses returns the lossy mappings of the schema derived from sample's
// type (Schema.Losses); nil when none can be derived.
func (c protoCodec) Losses(sample any) []Loss {
	return c.opts.losses(Proto, sample)
}

// losses derives the schema of sample's type in format f and returns its
// losses, nil when it cannot be derived.
func (o Options) losses(f Format, sample any) []Loss {
	t := reflect.TypeOf(sample)
	if t == nil {
		return nil
	}
	s, err := o.Derive(t, f)
	if err != nil {
		return nil
	}
	return s.Losses
}
