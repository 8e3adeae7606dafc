package derive

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// The hint rules: what a field's observed values suggest (fieldStats.hint),
// and the tightened descriptor that measures the suggestion (tightened).

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
