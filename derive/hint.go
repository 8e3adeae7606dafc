package derive

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/serbench/serbench/codec"
)

// HintKind is the kind of a schema-tightening hint.
type HintKind string

// The hints FindHints gives.
const (
	// HintEnum: a string field (or []string) whose values are a few short
	// identifiers, each seen several times.
	HintEnum HintKind = "enum"
	// HintTimestamp: a string field whose values all parse as RFC 3339.
	HintTimestamp HintKind = "timestamp"
	// HintNarrowInt: a 64-bit integer field whose values all fit 32 bits
	// or fewer.
	HintNarrowInt HintKind = "narrower integer"
	// HintIntegralFloat: a float field whose values are all integers.
	HintIntegralFloat HintKind = "integral float"
)

// Limits of the hint detection.
const (
	// MaxEnumValues is the most distinct values an enum hint takes: 16.
	MaxEnumValues = 16
	// MinEnumCount is the fewest values a string field needs in the sample
	// for an enum hint: 4. With fewer, a repeated value says nothing.
	MinEnumCount = 4
	// MinNumberCount is the fewest values a number field needs for a
	// hint: 2. One value says little about a field's range.
	MinNumberCount = 2
	// MaxHintDepth caps the nesting FindHints walks: 1,000 levels; deeper
	// is an error (a cycle through pointers reaches it).
	MaxHintDepth = 1000
)

// Hint is one field of a sample whose schema type could be tighter, with
// the protobuf sizes of the whole sample before and after that one change,
// measured on the sample through the derived descriptor (dynamicpb).
type Hint struct {
	// Path locates the field from the root type (".Status",
	// ".Lines[].Unit"), where the walk first met it. A struct type used
	// at several places is one message: its values are counted together.
	Path string
	// GoType is the field's Go type, as reflect prints it.
	GoType string
	Kind   HintKind
	// Seen is what the sample showed: "3 distinct values in 12",
	// "5 non-empty values, all RFC 3339", "8 values, all in [0, 1200]:
	// fit int16".
	Seen string
	// Proto and Avro are the suggested types: "enum LineUnit",
	// "google.protobuf.Timestamp", "int32"; "enum", "long
	// timestamp-micros", "int".
	Proto, Avro string
	// Before and After are the bytes of the whole sample marshalled by
	// proto.Marshal on the derived descriptor, and on the same descriptor
	// with only this field changed to Proto.
	Before, After int
	// AvroBefore is the bytes of the whole sample marshalled by
	// hamba/avro on the derived .avsc schema (as avro/derived does), and
	// AvroAfter that size plus, for every value of this field, the
	// difference the Avro binary encoding gives between the current type
	// and Avro (a string's length prefix and bytes, a float's 4 or 8
	// bytes, against the zigzag varint of the enum index, the Unix
	// microseconds or the integer; an int and a long are the same
	// varint). That is exact but for the byte-count prefix hamba/avro
	// writes before each block of up to 100 array or map items, whose
	// varint may gain or lose a byte when the block's size crosses 64 or
	// 8192 bytes. Both are -1 when avro/derived cannot take the type or
	// the sample (uint64, say); AvroErr then says why.
	AvroBefore, AvroAfter int
	AvroErr               error
	// MarshalBefore and MarshalAfter are proto.Marshal's ns/op on those
	// two messages; zero until Hints.TimeMarshal measures them.
	MarshalBefore, MarshalAfter float64

	before, after proto.Message
}

// Hints are FindHints's result, in field order.
type Hints []Hint

// FindHints looks at the values of sample, a pointer to a struct (slices
// of structs and nested structs included), for fields whose schema type
// could be tighter: strings that look like an enum or carry RFC 3339
// times, 64-bit integers that fit 32 bits, floats that are all integers.
// For each, it derives the protobuf descriptor with that one field
// changed, converts the sample to both messages (dynamicpb) and sets the
// encoded sizes, and the Avro sizes before and after (Hint.AvroBefore).
// The fields looked at are singular strings and numbers, pointers to them
// (presence fields, whose non-nil values count, as an API type with every
// field a pointer has them) and []string, in the root struct and in every
// struct reached through struct fields, slices, arrays, map values and
// non-nil pointers; map keys, maps of scalars and pointers in lists and
// maps are not.
// Errors: sample is not a
// non-nil pointer to a struct, a type DeriveProto cannot map, nesting
// deeper than MaxHintDepth.
func FindHints(sample any) (Hints, error) {
	return Options{}.FindHints(sample)
}

// FindHints is the package's FindHints with o: the fields o.Skip leaves
// out are not looked at.
func (o Options) FindHints(sample any) (Hints, error) {
	rv := reflect.ValueOf(sample)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("derive: hints are found in a non-nil pointer to a struct, not %T", sample)
	}
	ps, err := o.DeriveProto(rv.Type().Elem())
	if err != nil {
		return nil, err
	}
	st := &stats{byField: map[fieldKey]*fieldStats{}}
	if err := st.walk(ps.root, rv.Elem(), "", 0); err != nil {
		return nil, err
	}
	conv := newMsgConv(ps.root, ps.File, map[*msg]*msgConv{})
	before := dynamicpb.NewMessage(conv.desc)
	conv.toPB(rv.Elem(), before)
	beforeData, err := proto.Marshal(before)
	if err != nil {
		return nil, fmt.Errorf("derive: hints: the sample does not marshal: %w", err)
	}
	avroBefore, avroErr := o.avroSize(sample)
	var out Hints
	for _, k := range st.order {
		fs := st.byField[k]
		h, ok := fs.hint()
		if !ok {
			continue
		}
		after, err := tightened(ps, before, k, fs, &h)
		if err != nil {
			return nil, err
		}
		data, err := proto.Marshal(after)
		if err != nil {
			return nil, fmt.Errorf("derive: hints: %s: the tightened message does not marshal: %w", h.Path, err)
		}
		h.Before, h.After = len(beforeData), len(data)
		h.AvroBefore, h.AvroAfter, h.AvroErr = -1, -1, avroErr
		if avroErr == nil {
			h.AvroBefore, h.AvroAfter = avroBefore, avroBefore+fs.avroDelta(h.Kind)
		}
		h.before, h.after = before, after
		out = append(out, h)
	}
	return out, nil
}

// fieldKey is one field of one message.
type fieldKey struct {
	m *msg
	i int
}

// fieldStats are the values of one field seen in the sample.
type fieldStats struct {
	f    *field
	path string
	n    int            // values seen
	strs map[string]int // string values and their counts, up to MaxEnumValues+1 distinct
	many bool           // more than MaxEnumValues distinct strings
	// notIdent, notTime: a string value that is not a short identifier,
	// not an RFC 3339 time; offset: a time with an offset other than Z.
	notIdent, notTime, offset bool
	min, max                  int64 // integers
	umax                      uint64
	nonZero                   bool
	fractional, big           bool // floats: a value with a fraction, one past 2^53
	// Avro bytes of the values as they are (string, float or double), as
	// Unix microseconds (strings that parse as times; 0 for others) and
	// as integers (integral floats).
	avroNow, avroMicros, avroInt int
}

// avroDelta is the change in Avro bytes of the sample when the field
// takes the type of a hint of kind k.
func (fs *fieldStats) avroDelta(k HintKind) int {
	switch k {
	case HintEnum:
		return fs.n - fs.avroNow // an index below 64 is one byte
	case HintTimestamp:
		return fs.avroMicros - fs.avroNow
	case HintIntegralFloat:
		return fs.avroInt - fs.avroNow
	}
	return 0 // int and long: the same zigzag varint
}

// avroVarint is the length of the Avro (zigzag varint) encoding of x.
func avroVarint(x int64) int {
	u := uint64(x<<1) ^ uint64(x>>63)
	n := 1
	for ; u >= 0x80; u >>= 7 {
		n++
	}
	return n
}

// avroSize is the length of sample marshalled by avro/derived.
func (o Options) avroSize(sample any) (int, error) {
	b, err := o.AvroCodec().Bind(sample)
	if err != nil {
		return 0, err
	}
	v := sample
	if conv, ok := b.(codec.Converter); ok { // through the mirror type
		if v, err = conv.ToNative(sample); err != nil {
			return 0, err
		}
	}
	data, err := b.Marshal(v)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", AvroID, err)
	}
	return len(data), nil
}

type stats struct {
	byField map[fieldKey]*fieldStats
	order   []fieldKey
}

// identValue is a value an enum can take: a short identifier.
var identValue = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]{0,31}$`)

func (st *stats) walk(m *msg, v reflect.Value, path string, depth int) error {
	if depth > MaxHintDepth {
		return fmt.Errorf("derive: hints: the value nests deeper than MaxHintDepth (%d levels) at %s", MaxHintDepth, orRoot(path))
	}
	for i, f := range m.fields {
		fv, err := v.FieldByIndexErr(f.index)
		if err != nil {
			continue // a nil embedded pointer
		}
		fpath := path + fieldPath(m.goT, f.index)
		if err := st.value(fieldKey{m, i}, f, f.typ, fv, fpath, depth); err != nil {
			return err
		}
	}
	return nil
}

// value records fv, the value of field f (or an element of it) of type t.
func (st *stats) value(k fieldKey, f *field, t *typ, fv reflect.Value, path string, depth int) error {
	switch t.kind {
	case kStruct:
		return st.walk(t.msg, fv, path, depth+1)
	case kPtr:
		if fv.IsNil() {
			return nil // absent: no value to look at
		}
		if t.elem.kind == kStruct {
			return st.walk(t.elem.msg, fv.Elem(), path, depth+1)
		}
		if t != f.typ || t.elem.kind == kSlice {
			return nil // a list's or map's pointer elements, and a pointer to a list, are not hinted
		}
		return st.value(k, f, t.elem, fv.Elem(), path, depth)
	case kSlice, kArray:
		switch t.elem.kind {
		case kStruct, kPtr, kString:
			elemPath := path + "[]"
			if t.elem.kind == kString {
				elemPath = path // the hint is the field's
			}
			for i := range fv.Len() {
				if err := st.value(k, f, t.elem, fv.Index(i), elemPath, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	case kMap:
		if ek := t.elem.kind; ek == kStruct || ek == kPtr {
			it := fv.MapRange()
			for it.Next() {
				if err := st.value(k, f, t.elem, it.Value(), path+"{}", depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	case kString, kInt, kUint, kFloat:
	default:
		return nil
	}
	fs := st.byField[k]
	if fs == nil {
		fs = &fieldStats{f: f, path: path, strs: map[string]int{}, min: math.MaxInt64, max: math.MinInt64}
		st.byField[k] = fs
		st.order = append(st.order, k)
	}
	fs.n++
	switch t.kind {
	case kString:
		s := fv.String()
		if _, seen := fs.strs[s]; seen || len(fs.strs) <= MaxEnumValues {
			fs.strs[s]++
		} else {
			fs.many = true
		}
		if s != "" && !identValue.MatchString(s) {
			fs.notIdent = true
		}
		fs.avroNow += avroVarint(int64(len(s))) + len(s)
		micros := int64(0)
		if s != "" {
			if tm, err := time.Parse(time.RFC3339Nano, s); err != nil {
				fs.notTime = true
			} else {
				micros = tm.UnixMicro()
				if _, off := tm.Zone(); off != 0 || !strings.HasSuffix(s, "Z") {
					fs.offset = true
				}
			}
		}
		fs.avroMicros += avroVarint(micros)
	case kInt:
		x := fv.Int()
		fs.min, fs.max = min(fs.min, x), max(fs.max, x)
		fs.nonZero = fs.nonZero || x != 0
	case kUint:
		x := fv.Uint()
		fs.umax = max(fs.umax, x)
		fs.nonZero = fs.nonZero || x != 0
	case kFloat:
		x := fv.Float()
		fs.avroNow += t.bits / 8
		fs.avroInt += avroVarint(int64(x)) // used only when every value is integral
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0) || x != math.Trunc(x):
			fs.fractional = true
		case math.Abs(x) > 1<<53:
			fs.big = true
		default:
			fs.min, fs.max = min(fs.min, int64(x)), max(fs.max, int64(x))
		}
		fs.nonZero = fs.nonZero || x != 0
	}
	return nil
}

// fieldPath is ".Base.ID": the Go names along index in struct type t.
func fieldPath(t reflect.Type, index []int) string {
	var sb strings.Builder
	for _, i := range index {
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		sf := t.Field(i)
		sb.WriteString("." + sf.Name)
		t = sf.Type
	}
	return sb.String()
}

// hint returns the hint the field's values make, false for none.
func (fs *fieldStats) hint() (Hint, bool) {
	t := fs.f.typ
	if t.kind == kPtr {
		t = t.elem // a presence field: its non-nil values
	}
	list := t.kind == kSlice
	if list {
		t = t.elem
	}
	h := Hint{Path: fs.path, GoType: fs.f.typ.goT.String()}
	switch t.kind {
	case kString:
		nonEmpty := 0
		for s, c := range fs.strs {
			if s != "" {
				nonEmpty += c
			}
		}
		if nonEmpty == 0 {
			return h, false
		}
		distinct := len(fs.strs)
		if _, ok := fs.strs[""]; ok {
			distinct--
		}
		switch {
		case !fs.notTime && !list:
			h.Kind, h.Proto, h.Avro = HintTimestamp, timestampName, "long timestamp-micros"
			h.Seen = plural(nonEmpty, "non-empty value") + ", all RFC 3339"
			if fs.offset {
				h.Seen += " (offsets other than Z: the zone would be lost)"
			}
			return h, true
		case !fs.many && !fs.notIdent && fs.n >= MinEnumCount && 2*len(fs.strs) <= fs.n:
			h.Kind, h.Proto, h.Avro = HintEnum, "enum "+enumName(fs.f), "enum"
			if list {
				h.Proto, h.Avro = "repeated enum "+enumName(fs.f), "array of enum"
			}
			h.Seen = fmt.Sprintf("%s in %d", plural(distinct, "distinct value"), fs.n)
			return h, true
		}
	case kInt:
		if t.bits != 64 || !fs.nonZero || fs.n < MinNumberCount {
			return h, false
		}
		narrow, ok := narrowestInt(fs.min, fs.max)
		if !ok {
			return h, false
		}
		h.Kind, h.Proto, h.Avro = HintNarrowInt, "int32", "int"
		if fs.min < 0 {
			h.Proto = "sint32" // a negative int32 is 10 bytes on the wire, a zigzag one is not
		}
		h.Seen = fmt.Sprintf("%s, all in [%d, %d]: fit %s", plural(fs.n, "value"), fs.min, fs.max, narrow)
		return h, true
	case kUint:
		if t.bits != 64 || !fs.nonZero || fs.n < MinNumberCount || fs.umax > math.MaxUint32 {
			return h, false
		}
		narrow := "uint32"
		switch {
		case fs.umax <= math.MaxUint8:
			narrow = "uint8"
		case fs.umax <= math.MaxUint16:
			narrow = "uint16"
		}
		h.Kind, h.Proto, h.Avro = HintNarrowInt, "uint32", "long"
		if fs.umax <= math.MaxInt32 {
			h.Avro = "int"
		}
		h.Seen = fmt.Sprintf("%s, all in [0, %d]: fit %s", plural(fs.n, "value"), fs.umax, narrow)
		return h, true
	case kFloat:
		if fs.fractional || fs.big || !fs.nonZero || fs.n < MinNumberCount {
			return h, false
		}
		h.Kind, h.Proto, h.Avro = HintIntegralFloat, "int64", "long"
		if fs.min < 0 {
			h.Proto = "sint64"
		}
		if _, ok := narrowestInt(fs.min, fs.max); ok {
			h.Proto, h.Avro = "int32", "int"
			if fs.min < 0 {
				h.Proto = "sint32"
			}
		}
		h.Seen = fmt.Sprintf("%s, all integers in [%d, %d]", plural(fs.n, "value"), fs.min, fs.max)
		return h, true
	}
	return h, false
}

// plural is "1 value", "2 values".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// narrowestInt names the narrowest Go signed integer type holding [lo, hi],
// false when only int64 does.
func narrowestInt(lo, hi int64) (string, bool) {
	switch {
	case lo >= math.MinInt8 && hi <= math.MaxInt8:
		return "int8", true
	case lo >= math.MinInt16 && hi <= math.MaxInt16:
		return "int16", true
	case lo >= math.MinInt32 && hi <= math.MaxInt32:
		return "int32", true
	}
	return "", false
}

// enumName is the name of the enum an enum hint adds to the field's
// message: the field's proto name in CamelCase.
func enumName(f *field) string { return camel(f.schemaName()) }

// enumValues are the enum's value names: <FIELD>_UNSPECIFIED = 0 (the
// empty string), then one per value in sorted order, numbered from 1.
func enumValues(f *field, strs map[string]int) (names []string, numbers map[string]int32) {
	prefix := strings.ToUpper(f.schemaName()) + "_"
	names = []string{prefix + "UNSPECIFIED"}
	numbers = map[string]int32{"": 0}
	used := map[string]bool{names[0]: true}
	vals := make([]string, 0, len(strs))
	for s := range strs {
		if s != "" {
			vals = append(vals, s)
		}
	}
	slices.Sort(vals)
	for _, s := range vals {
		name := prefix + ident(strings.ToUpper(s))
		for i := 2; used[name]; i++ {
			name = fmt.Sprintf("%s%s_%d", prefix, ident(strings.ToUpper(s)), i)
		}
		used[name] = true
		numbers[s] = int32(len(names))
		names = append(names, name)
	}
	return names, numbers
}

// tightened returns the message of the sample (before, on ps's
// descriptor) on a descriptor with field k changed as h says.
func tightened(ps *ProtoSchema, before protoreflect.Message, k fieldKey, fs *fieldStats, h *Hint) (proto.Message, error) {
	fdp := protodesc.ToFileDescriptorProto(ps.File)
	var dp *descriptorpb.DescriptorProto
	for _, x := range fdp.MessageType {
		if x.GetName() == k.m.name {
			dp = x
		}
	}
	var fd *descriptorpb.FieldDescriptorProto
	for _, x := range dp.GetField() {
		if x.GetNumber() == int32(k.i+1) {
			fd = x
		}
	}
	if fd == nil {
		return nil, fmt.Errorf("derive: hints: %s: no field %d in message %s", h.Path, k.i+1, k.m.name)
	}
	var numbers map[string]int32
	fd.TypeName = nil
	switch h.Kind {
	case HintEnum:
		var names []string
		names, numbers = enumValues(fs.f, fs.strs)
		ed := &descriptorpb.EnumDescriptorProto{Name: proto.String(enumName(fs.f))}
		for i, n := range names {
			ed.Value = append(ed.Value, &descriptorpb.EnumValueDescriptorProto{Name: proto.String(n), Number: proto.Int32(int32(i))})
		}
		dp.EnumType = append(dp.EnumType, ed)
		fd.Type = descriptorpb.FieldDescriptorProto_TYPE_ENUM.Enum()
		fd.TypeName = proto.String("." + fdp.GetPackage() + "." + dp.GetName() + "." + ed.GetName())
	case HintTimestamp:
		if fd.GetProto3Optional() {
			// A message field has presence of its own: no synthetic oneof.
			idx := fd.GetOneofIndex()
			fd.Proto3Optional, fd.OneofIndex = nil, nil
			dp.OneofDecl = slices.Delete(dp.OneofDecl, int(idx), int(idx)+1)
			for _, x := range dp.GetField() {
				if x.OneofIndex != nil && x.GetOneofIndex() > idx {
					x.OneofIndex = proto.Int32(x.GetOneofIndex() - 1)
				}
			}
		}
		fd.Type = descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum()
		fd.TypeName = proto.String("." + timestampName)
		if !slices.Contains(fdp.Dependency, "google/protobuf/timestamp.proto") {
			fdp.Dependency = append(fdp.Dependency, "google/protobuf/timestamp.proto")
		}
	case HintNarrowInt, HintIntegralFloat:
		t, ok := descriptorpb.FieldDescriptorProto_Type_value["TYPE_"+strings.ToUpper(h.Proto)]
		if !ok {
			return nil, fmt.Errorf("derive: hints: %s: no protobuf type %s", h.Path, h.Proto)
		}
		fd.Type = descriptorpb.FieldDescriptorProto_Type(t).Enum()
	}
	files := new(protoregistry.Files)
	if err := files.RegisterFile(timestamppb.File_google_protobuf_timestamp_proto); err != nil {
		return nil, fmt.Errorf("derive: hints: %w", err)
	}
	file, err := protodesc.NewFile(fdp, files)
	if err != nil {
		return nil, fmt.Errorf("derive: hints: %s: the tightened descriptor does not build: %w", h.Path, err)
	}
	target := file.Messages().ByName(protoreflect.Name(k.m.name)).Fields().ByNumber(protoreflect.FieldNumber(k.i + 1))
	c := &copier{file: file, target: target, numbers: numbers}
	root := dynamicpb.NewMessage(file.Messages().ByName(before.Descriptor().Name()))
	if err := c.message(before, root); err != nil {
		return nil, fmt.Errorf("derive: hints: %s: %w", h.Path, err)
	}
	return root, nil
}

// copier copies a message of the derived descriptor to one of the
// tightened descriptor, converting the values of the changed field.
type copier struct {
	file    protoreflect.FileDescriptor
	target  protoreflect.FieldDescriptor
	numbers map[string]int32 // an enum hint's values
}

func (c *copier) message(src, dst protoreflect.Message) error {
	var err error
	src.Range(func(sfd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		dfd := dst.Descriptor().Fields().ByNumber(sfd.Number())
		switch {
		case sfd.IsList():
			sl, dl := v.List(), dst.Mutable(dfd).List()
			for i := range sl.Len() {
				var x protoreflect.Value
				if x, err = c.value(dfd, sl.Get(i), dl.NewElement); err != nil {
					return false
				}
				dl.Append(x)
			}
		case sfd.IsMap():
			dm := dst.Mutable(dfd).Map()
			v.Map().Range(func(key protoreflect.MapKey, x protoreflect.Value) bool {
				var y protoreflect.Value
				if y, err = c.value(dfd.MapValue(), x, dm.NewValue); err != nil {
					return false
				}
				dm.Set(key, y)
				return true
			})
		default:
			var x protoreflect.Value
			if x, err = c.value(dfd, v, func() protoreflect.Value { return dst.NewField(dfd) }); err != nil {
				return false
			}
			dst.Set(dfd, x)
		}
		return err == nil
	})
	return err
}

// value converts one singular value (or element) for dfd.
func (c *copier) value(dfd protoreflect.FieldDescriptor, v protoreflect.Value, newMsg func() protoreflect.Value) (protoreflect.Value, error) {
	if dfd == c.target {
		switch dfd.Kind() {
		case protoreflect.EnumKind:
			n, ok := c.numbers[v.String()]
			if !ok {
				return v, fmt.Errorf("no enum value for %q", v.String())
			}
			return protoreflect.ValueOfEnum(protoreflect.EnumNumber(n)), nil
		case protoreflect.MessageKind: // a timestamp
			tm, err := time.Parse(time.RFC3339Nano, v.String())
			if err != nil {
				return v, err
			}
			ts := newMsg()
			m := ts.Message()
			m.Set(m.Descriptor().Fields().ByNumber(1), protoreflect.ValueOfInt64(tm.Unix()))
			m.Set(m.Descriptor().Fields().ByNumber(2), protoreflect.ValueOfInt32(int32(tm.Nanosecond())))
			return ts, nil
		case protoreflect.Int32Kind, protoreflect.Sint32Kind:
			if f, ok := v.Interface().(float64); ok {
				return protoreflect.ValueOfInt32(int32(f)), nil
			}
			if f, ok := v.Interface().(float32); ok {
				return protoreflect.ValueOfInt32(int32(f)), nil
			}
			return protoreflect.ValueOfInt32(int32(v.Int())), nil
		case protoreflect.Uint32Kind:
			return protoreflect.ValueOfUint32(uint32(v.Uint())), nil
		case protoreflect.Int64Kind, protoreflect.Sint64Kind:
			return protoreflect.ValueOfInt64(int64(v.Float())), nil
		}
		return v, fmt.Errorf("no conversion to %s", dfd.Kind())
	}
	if dfd.Kind() != protoreflect.MessageKind && dfd.Kind() != protoreflect.GroupKind {
		return v, nil
	}
	if dfd.Message().FullName() == timestampName {
		return v, nil // the well-known type is the same in both files
	}
	x := newMsg()
	return x, c.message(v.Message(), x.Message())
}

// ErrNoHints is returned by Hints.TimeMarshal for hints that FindHints did
// not make (the zero Hint has no messages to time).
var ErrNoHints = errors.New("derive: hints: no messages to time (use FindHints)")

// TimeMarshal measures proto.Marshal on each hint's two messages and
// sets MarshalBefore and MarshalAfter in ns/op: after one batch of each
// to warm up, batches of 32 marshals alternate between the two until the
// hint has taken about budget, and each figure is the fastest of its
// batches' ns/op (the batch least disturbed by other processes). It is
// one short measurement on the running machine, not a
// benchmark: read it as a direction. Errors: a hint without messages
// (ErrNoHints), a marshal error.
func (hs Hints) TimeMarshal(budget time.Duration) error {
	for i := range hs {
		h := &hs[i]
		if h.before == nil || h.after == nil {
			return ErrNoHints
		}
		before, after := math.Inf(1), math.Inf(1)
		for start, n := time.Now(), 0; n < 2 || time.Since(start) < budget; n++ {
			b, err := marshalBatch(h.before)
			if err != nil {
				return fmt.Errorf("derive: hints: %s: %w", h.Path, err)
			}
			a, err := marshalBatch(h.after)
			if err != nil {
				return fmt.Errorf("derive: hints: %s: %w", h.Path, err)
			}
			if n > 0 { // the first batch warms up
				before, after = min(before, b), min(after, a)
			}
		}
		h.MarshalBefore, h.MarshalAfter = before, after
	}
	return nil
}

// marshalBatch returns proto.Marshal's ns/op on m over a batch of 32.
func marshalBatch(m proto.Message) (float64, error) {
	const batch = 32
	t0 := time.Now()
	for range batch {
		if _, err := proto.Marshal(m); err != nil {
			return 0, err
		}
	}
	return float64(time.Since(t0).Nanoseconds()) / batch, nil
}

// String is the hints as a table: field, Go type, what was seen, the
// suggested protobuf and Avro types, the protobuf and the Avro bytes of
// the sample before → after and the change in percent ("n/a" for Avro
// when avro/derived cannot take the sample), and the marshal ns/op before
// → after when TimeMarshal has run. "" when there are no hints.
func (hs Hints) String() string {
	if len(hs) == 0 {
		return ""
	}
	timed := hs[0].MarshalBefore > 0
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	head := "field\tGo type\tseen\tprotobuf\tAvro\tprotobuf bytes\tAvro bytes"
	if timed {
		head += "\tmarshal ns/op"
	}
	fmt.Fprintln(tw, head)
	for _, h := range hs {
		avroBytes := "n/a"
		if h.AvroBefore >= 0 {
			avroBytes = fmt.Sprintf("%d → %d (%s)", h.AvroBefore, h.AvroAfter, change(float64(h.AvroBefore), float64(h.AvroAfter)))
		}
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%d → %d (%s)\t%s", h.Path, h.GoType, h.Seen, h.Proto, h.Avro, h.Before, h.After, change(float64(h.Before), float64(h.After)), avroBytes)
		if timed {
			line += fmt.Sprintf("\t%.0f → %.0f (%s)", h.MarshalBefore, h.MarshalAfter, change(h.MarshalBefore, h.MarshalAfter))
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// change is after relative to before in percent, "+0%" for none.
func change(before, after float64) string {
	if before == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%+.0f%%", 100*(after-before)/before)
}
