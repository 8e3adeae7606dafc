package derive

import (
	"fmt"
	"reflect"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// ProtoSchema is a derived Protocol Buffers schema: the text and the
// descriptor built from the same mapping.
type ProtoSchema struct {
	Schema
	// File is the descriptor of the whole .proto file; Message is the root
	// message's. Both are built programmatically (descriptorpb, then
	// protodesc.NewFile) and registered nowhere.
	File    protoreflect.FileDescriptor
	Message protoreflect.MessageDescriptor

	root *msg
}

const timestampName = "google.protobuf.Timestamp"

// Losses of the proto mapping.
const (
	lostProtoTime   = "time zone (offset and name) and monotonic reading; the instant is kept to the nanosecond and decodes in UTC"
	lostProtoNarrow = "%s on the wire: a value outside %s's range from another writer is truncated on decode"
)

// DeriveProto returns the proto3 schema of struct type t: one message per
// struct type, in the package named after t's Go package. time.Time is
// google.protobuf.Timestamp, time.Duration int64 nanoseconds, a pointer
// to a scalar a proto3 optional field, a slice or array a repeated field,
// a map a map field (keys: integers, bool or string); a list or map that
// is an element of a list or a value of a map goes into a wrapper message
// of one field, value = 1, named after the field that holds it
// (OrderMatrixItem for a list's element, OrderGroupsValue for a map's
// value), as a hand-written schema would. Errors: t is not a struct;
// *Error for fields protobuf cannot take (map keys of other types, and
// those of FieldError).
func DeriveProto(t reflect.Type) (*ProtoSchema, error) {
	return Options{}.DeriveProto(t)
}

// DeriveProto is the package's DeriveProto with o.
func (o Options) DeriveProto(t reflect.Type) (*ProtoSchema, error) {
	m, err := newMapper(t, Proto, o)
	if err != nil {
		return nil, err
	}
	return m.proto()
}

// proto derives the proto schema of m's type (DeriveProto), naming the
// wrapper messages in m.wrapName.
func (m *mapper) proto() (*ProtoSchema, error) {
	pkg := m.namespace()
	fdp := &descriptorpb.FileDescriptorProto{
		Name:    proto.String(m.root.name + ".proto"),
		Package: proto.String(pkg),
		Syntax:  proto.String("proto3"),
	}
	var body strings.Builder
	usesTime := false
	// write adds message dp to the file and its text, one line per field.
	write := func(dp *descriptorpb.DescriptorProto, comment string, lines []string) {
		fdp.MessageType = append(fdp.MessageType, dp)
		fmt.Fprintf(&body, "\n// %s\nmessage %s {\n%s}\n", comment, dp.GetName(), strings.Join(lines, ""))
		for _, fd := range dp.Field {
			usesTime = usesTime || fd.GetTypeName() == "."+timestampName
		}
	}
	for _, x := range m.b.msgs {
		dp := &descriptorpb.DescriptorProto{Name: proto.String(x.name)}
		var lines []string
		seen := map[string]string{}
		for i, f := range x.fields {
			name, ok := m.name(f, seen)
			if !ok {
				continue
			}
			var notes []string
			if f.viaPtr {
				notes = append(notes, "lossy: "+m.embeddedLoss(f))
			}
			fd, line, ok := m.protoField(dp, x.name, name, x.name+camel(name), int32(i+1), f.path, f.typ, pkg, notes)
			if !ok {
				continue
			}
			fd.JsonName = proto.String(f.name)
			if f.tagged && f.name != name {
				line = strings.Replace(line, ";", fmt.Sprintf(" [json_name = %q];", f.name), 1)
			}
			lines = append(lines, line)
		}
		write(dp, fmt.Sprintf("%s is the Go type %s.", x.name, x.goT), lines)
		for len(m.wrappers) > 0 {
			w := m.wrappers[0]
			m.wrappers = m.wrappers[1:]
			wp := &descriptorpb.DescriptorProto{Name: proto.String(w.name)}
			_, line, ok := m.protoField(wp, w.name, "value", w.name, 1, w.path, w.typ, pkg, nil)
			if ok {
				write(wp, fmt.Sprintf("%s holds one %s: protobuf has no list or map of lists or maps.", w.name, w.typ.goT), []string{line})
			}
		}
	}
	if err := m.err(); err != nil {
		return nil, err
	}
	var text strings.Builder
	text.WriteString(m.header("// "))
	text.WriteString("\nsyntax = \"proto3\";\n\npackage " + pkg + ";\n")
	if usesTime {
		fdp.Dependency = []string{"google/protobuf/timestamp.proto"}
		text.WriteString("\nimport \"google/protobuf/timestamp.proto\";\n")
	}
	text.WriteString(body.String())
	files := new(protoregistry.Files)
	if err := files.RegisterFile(timestamppb.File_google_protobuf_timestamp_proto); err != nil {
		return nil, fmt.Errorf("derive: proto: %w", err)
	}
	fd, err := protodesc.NewFile(fdp, files)
	if err != nil {
		return nil, fmt.Errorf("derive: proto: the descriptor derived from %s does not build: %w", m.root.goT, err)
	}
	return &ProtoSchema{
		Schema:  Schema{Format: Proto, Type: m.root.goT, Name: m.root.name, Text: text.String(), Losses: m.losses},
		File:    fd,
		Message: fd.Messages().ByName(protoreflect.Name(m.root.name)),
		root:    m.root,
	}, nil
}

// protoField maps the field name (number n) of Go type t at path, in
// message dp named parent, and returns its descriptor (added to dp) and
// its line of schema text; false after recording why it cannot. notes are
// the field's comments so far; a wrapper message its elements need is
// named hint+"Item" (a list's) or hint+"Value" (a map's).
func (m *mapper) protoField(dp *descriptorpb.DescriptorProto, parent, name, hint string, n int32, path string, t *typ, pkg string, notes []string) (*descriptorpb.FieldDescriptorProto, string, bool) {
	fd := &descriptorpb.FieldDescriptorProto{
		Name:     proto.String(name),
		Number:   proto.Int32(n),
		JsonName: proto.String(name),
		Label:    descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(),
	}
	var decl string
	switch t.kind {
	case kSlice, kArray:
		e, ok := m.protoElem(path+"[]", t.elem, pkg, hint+"Item", &notes)
		if !ok {
			return nil, "", false
		}
		fd.Label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
		fd.Type, fd.TypeName = e.typ, e.typeName
		decl = "repeated " + e.text
		if t.kind == kSlice {
			notes = append(notes, "lossy: "+m.lose(path, t, decl, lostNilEmpty))
		} else {
			notes = append(notes, "lossy: "+m.lose(path, t, decl, lostArrayLen))
		}
	case kMap:
		k, ok := m.protoKey(path+"{key}", t.key, &notes)
		v, ok2 := m.protoElem(path+"{}", t.elem, pkg, hint+"Value", &notes)
		if !ok || !ok2 {
			return nil, "", false
		}
		entry := camel(name) + "Entry"
		dp.NestedType = append(dp.NestedType, &descriptorpb.DescriptorProto{
			Name: proto.String(entry),
			Field: []*descriptorpb.FieldDescriptorProto{
				{Name: proto.String("key"), Number: proto.Int32(1), Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(), Type: k.typ, JsonName: proto.String("key")},
				{Name: proto.String("value"), Number: proto.Int32(2), Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(), Type: v.typ, TypeName: v.typeName, JsonName: proto.String("value")},
			},
			Options: &descriptorpb.MessageOptions{MapEntry: proto.Bool(true)},
		})
		fd.Label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
		fd.Type = descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum()
		fd.TypeName = proto.String("." + pkg + "." + parent + "." + entry)
		decl = fmt.Sprintf("map<%s, %s>", k.text, v.text)
		notes = append(notes, "lossy: "+m.lose(path, t, decl, lostNilEmpty))
	case kPtr:
		if t.elem.kind == kSlice { // a list with presence: a wrapper message
			e, ok := m.protoElem(path, t.elem, pkg, hint+"List", &notes)
			if !ok {
				return nil, "", false
			}
			fd.Type, fd.TypeName = e.typ, e.typeName
			decl = e.text
			notes = append(notes, "lossy: "+m.lose(path, t, decl, lostPtrSliceEmpty))
			break
		}
		e, ok := m.protoScalar(path, t.elem, pkg, &notes)
		if !ok {
			return nil, "", false
		}
		fd.Type, fd.TypeName = e.typ, e.typeName
		decl = e.text
		if e.typ.Number() != descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Number() {
			fd.Proto3Optional = proto.Bool(true)
			fd.OneofIndex = proto.Int32(int32(len(dp.OneofDecl)))
			dp.OneofDecl = append(dp.OneofDecl, &descriptorpb.OneofDescriptorProto{Name: proto.String("_" + name)})
			decl = "optional " + e.text
		}
	default:
		e, ok := m.protoScalar(path, t, pkg, &notes)
		if !ok {
			return nil, "", false
		}
		fd.Type, fd.TypeName = e.typ, e.typeName
		decl = e.text
	}
	dp.Field = append(dp.Field, fd)
	line := fmt.Sprintf("  %s %s = %d;", decl, name, n)
	if len(notes) > 0 {
		line += " // " + strings.Join(notes, "; ")
	}
	return fd, line + "\n", true
}

// protoType is a field's type in both forms.
type protoType struct {
	typ      *descriptorpb.FieldDescriptorProto_Type
	typeName *string // message types only
	text     string
}

func scalarType(t descriptorpb.FieldDescriptorProto_Type, text string) protoType {
	return protoType{typ: t.Enum(), text: text}
}

// protoScalar maps a singular field's type: a scalar, time.Time, a
// struct. notes gets the lossy mappings.
func (m *mapper) protoScalar(path string, t *typ, pkg string, notes *[]string) (protoType, bool) {
	switch t.kind {
	case kBool:
		return scalarType(descriptorpb.FieldDescriptorProto_TYPE_BOOL, "bool"), true
	case kString:
		return scalarType(descriptorpb.FieldDescriptorProto_TYPE_STRING, "string"), true
	case kBytes:
		p := scalarType(descriptorpb.FieldDescriptorProto_TYPE_BYTES, "bytes")
		if t.fix > 0 {
			*notes = append(*notes, "lossy: "+m.lose(path, t, "bytes", lostArrayLen))
		} else {
			*notes = append(*notes, "lossy: "+m.lose(path, t, "bytes", lostNilEmpty))
		}
		return p, true
	case kInt:
		if t.bits == 64 {
			return scalarType(descriptorpb.FieldDescriptorProto_TYPE_INT64, "int64"), true
		}
		if t.bits < 32 {
			*notes = append(*notes, "lossy: "+m.lose(path, t, "int32", fmt.Sprintf(lostProtoNarrow, "int32", t.goT.Kind())))
		}
		return scalarType(descriptorpb.FieldDescriptorProto_TYPE_INT32, "int32"), true
	case kUint:
		if t.bits == 64 {
			return scalarType(descriptorpb.FieldDescriptorProto_TYPE_UINT64, "uint64"), true
		}
		if t.bits < 32 {
			*notes = append(*notes, "lossy: "+m.lose(path, t, "uint32", fmt.Sprintf(lostProtoNarrow, "uint32", t.goT.Kind())))
		}
		return scalarType(descriptorpb.FieldDescriptorProto_TYPE_UINT32, "uint32"), true
	case kFloat:
		if t.bits == 32 {
			return scalarType(descriptorpb.FieldDescriptorProto_TYPE_FLOAT, "float"), true
		}
		return scalarType(descriptorpb.FieldDescriptorProto_TYPE_DOUBLE, "double"), true
	case kDuration:
		*notes = append(*notes, "time.Duration in nanoseconds")
		return scalarType(descriptorpb.FieldDescriptorProto_TYPE_INT64, "int64"), true
	case kTime:
		*notes = append(*notes, "lossy: "+m.lose(path, t, timestampName, lostProtoTime))
		return protoType{typ: descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum(), typeName: proto.String("." + timestampName), text: timestampName}, true
	case kStruct:
		return protoType{typ: descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum(), typeName: proto.String("." + pkg + "." + t.msg.name), text: t.msg.name}, true
	}
	m.fail(path, t, "protobuf has no field of this shape here (a %s)", t.goT.Kind())
	return protoType{}, false
}

// protoElem maps the element of a repeated field or the value of a map;
// a list or map there goes into a wrapper message named after hint.
func (m *mapper) protoElem(path string, t *typ, pkg, hint string, notes *[]string) (protoType, bool) {
	switch t.kind {
	case kSlice, kArray, kMap:
		name := hint
		for i := 2; m.b.names[name]; i++ {
			name = fmt.Sprintf("%s%d", hint, i)
		}
		m.b.names[name] = true
		m.wrappers = append(m.wrappers, wrapper{name: name, path: path, typ: t})
		if m.wrapName == nil {
			m.wrapName = map[*typ]string{}
		}
		m.wrapName[t] = name
		return protoType{typ: descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum(), typeName: proto.String("." + pkg + "." + name), text: name}, true
	case kPtr:
		p, ok := m.protoScalar(path, t.elem, pkg, notes)
		if ok {
			*notes = append(*notes, "lossy: "+m.lose(path, t, p.text, lostNilElem))
		}
		return p, ok
	}
	return m.protoScalar(path, t, pkg, notes)
}

// wrapper is a message DeriveProto writes to hold a list or map that is
// an element of a list or a value of a map.
type wrapper struct {
	name, path string
	typ        *typ
}

// protoKey maps a map's key type.
func (m *mapper) protoKey(path string, t *typ, notes *[]string) (protoType, bool) {
	switch t.kind {
	case kBool, kString, kInt, kUint:
		return m.protoScalar(path, t, "", notes)
	}
	m.fail(path, t, "protobuf map keys are integers, bool or string")
	return protoType{}, false
}

// camel returns snake_case s in CamelCase, as protoc names map entries.
func camel(s string) string {
	var sb strings.Builder
	up := true
	for _, r := range s {
		if r == '_' {
			up = true
			continue
		}
		if up {
			sb.WriteString(strings.ToUpper(string(r)))
			up = false
		} else {
			sb.WriteRune(r)
		}
	}
	return sb.String()
}
