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
// a map a map field (keys: integers, bool or string). Errors: t is not a
// struct; *Error for fields protobuf cannot take (lists of lists, maps of
// lists or maps, map keys of other types, and those of FieldError).
func DeriveProto(t reflect.Type) (*ProtoSchema, error) {
	m, err := newMapper(t, Proto)
	if err != nil {
		return nil, err
	}
	pkg := m.namespace()
	fdp := &descriptorpb.FileDescriptorProto{
		Name:    proto.String(m.root.name + ".proto"),
		Package: proto.String(pkg),
		Syntax:  proto.String("proto3"),
	}
	var body strings.Builder
	usesTime := false
	for _, x := range m.b.msgs {
		dp := &descriptorpb.DescriptorProto{Name: proto.String(x.name)}
		fmt.Fprintf(&body, "\n// %s is the Go type %s.\nmessage %s {\n", x.name, x.goT, x.name)
		seen := map[string]string{}
		for i, f := range x.fields {
			name, ok := m.name(f, seen)
			if !ok {
				continue
			}
			fd := &descriptorpb.FieldDescriptorProto{
				Name:     proto.String(name),
				Number:   proto.Int32(int32(i + 1)),
				JsonName: proto.String(f.name),
				Label:    descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(),
			}
			var notes []string
			decl := ""
			t := f.typ
			if f.viaPtr {
				notes = append(notes, "lossy: "+m.lose(f.path, t, "field of a flattened embedded pointer", lostEmbeddedNil))
			}
			switch t.kind {
			case kSlice, kArray:
				e, ok := m.protoElem(f.path+"[]", t.elem, pkg, &notes)
				if !ok {
					continue
				}
				fd.Label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
				fd.Type, fd.TypeName = e.typ, e.typeName
				decl = "repeated " + e.text
				if t.kind == kSlice {
					notes = append(notes, "lossy: "+m.lose(f.path, t, decl, lostNilEmpty))
				} else {
					notes = append(notes, "lossy: "+m.lose(f.path, t, decl, lostArrayLen))
				}
			case kMap:
				k, ok := m.protoKey(f.path+"{key}", t.key, &notes)
				v, ok2 := m.protoElem(f.path+"{}", t.elem, pkg, &notes)
				if !ok || !ok2 {
					continue
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
				fd.TypeName = proto.String("." + pkg + "." + x.name + "." + entry)
				decl = fmt.Sprintf("map<%s, %s>", k.text, v.text)
				notes = append(notes, "lossy: "+m.lose(f.path, t, decl, lostNilEmpty))
			case kPtr:
				e, ok := m.protoScalar(f.path, t.elem, pkg, &notes)
				if !ok {
					continue
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
				e, ok := m.protoScalar(f.path, t, pkg, &notes)
				if !ok {
					continue
				}
				fd.Type, fd.TypeName = e.typ, e.typeName
				decl = e.text
			}
			usesTime = usesTime || (fd.TypeName != nil && *fd.TypeName == "."+timestampName)
			dp.Field = append(dp.Field, fd)
			line := fmt.Sprintf("  %s %s = %d;", decl, name, i+1)
			if f.tagged && f.name != name {
				line = fmt.Sprintf("  %s %s = %d [json_name = %q];", decl, name, i+1, f.name)
			}
			if len(notes) > 0 {
				line += " // " + strings.Join(notes, "; ")
			}
			body.WriteString(line + "\n")
		}
		body.WriteString("}\n")
		fdp.MessageType = append(fdp.MessageType, dp)
	}
	if err := m.err(); err != nil {
		return nil, err
	}
	var text strings.Builder
	text.WriteString(header(m.root.goT, "// "))
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

// protoElem maps the element of a repeated field or the value of a map.
func (m *mapper) protoElem(path string, t *typ, pkg string, notes *[]string) (protoType, bool) {
	switch t.kind {
	case kSlice, kArray, kMap:
		m.fail(path, t, "a list or map inside a list or map needs a wrapper message, which derive does not write")
		return protoType{}, false
	case kPtr:
		p, ok := m.protoScalar(path, t.elem, pkg, notes)
		if ok {
			*notes = append(*notes, "lossy: "+m.lose(path, t, p.text, lostNilElem))
		}
		return p, ok
	}
	return m.protoScalar(path, t, pkg, notes)
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
