package server

import (
	"encoding/json"
	"fmt"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// ProtobufJSDescriptor returns the messages of file and of every file it
// imports, transitively, as a protobufjs JSON descriptor: the document
// protobufjs's Root.fromJSON reads (the "JSON descriptors" format of the
// protobufjs README: nested namespaces by package, then per message
// "fields": {name: {"type", "id", "rule"?, "keyType"?}}). Field names are
// the .proto names, message types are fully qualified with a leading dot.
// Enums become {"values": {name: number}}; oneofs are not written (a oneof
// field is still decoded, as a plain field). It fails on a group field,
// which protobufjs JSON cannot express without the proto2 syntax.
func ProtobufJSDescriptor(file protoreflect.FileDescriptor) ([]byte, error) {
	root := map[string]any{}
	seen := map[string]bool{}
	var addFile func(f protoreflect.FileDescriptor) error
	addFile = func(f protoreflect.FileDescriptor) error {
		if seen[f.Path()] {
			return nil
		}
		seen[f.Path()] = true
		imports := f.Imports()
		for i := range imports.Len() {
			if err := addFile(imports.Get(i).FileDescriptor); err != nil {
				return err
			}
		}
		ns := namespace(root, string(f.Package()))
		if err := addMessages(ns, f.Messages()); err != nil {
			return err
		}
		addEnums(ns, f.Enums())
		return nil
	}
	if err := addFile(file); err != nil {
		return nil, err
	}
	return json.Marshal(root)
}

// namespace returns the "nested" map of the namespace pkg ("a.b") under root,
// making it if needed.
func namespace(root map[string]any, pkg string) map[string]any {
	ns := root
	if pkg == "" {
		return nested(ns)
	}
	for _, part := range strings.Split(pkg, ".") {
		n := nested(ns)
		child, ok := n[part].(map[string]any)
		if !ok {
			child = map[string]any{}
			n[part] = child
		}
		ns = child
	}
	return nested(ns)
}

func nested(m map[string]any) map[string]any {
	n, ok := m["nested"].(map[string]any)
	if !ok {
		n = map[string]any{}
		m["nested"] = n
	}
	return n
}

func addMessages(ns map[string]any, msgs protoreflect.MessageDescriptors) error {
	for i := range msgs.Len() {
		md := msgs.Get(i)
		if md.IsMapEntry() {
			continue // written as the map field's keyType and type
		}
		fields := map[string]any{}
		fds := md.Fields()
		for j := range fds.Len() {
			fd := fds.Get(j)
			f, err := jsField(fd)
			if err != nil {
				return err
			}
			fields[string(fd.Name())] = f
		}
		m := map[string]any{"fields": fields}
		if md.Messages().Len() > 0 || md.Enums().Len() > 0 {
			sub := nested(m)
			if err := addMessages(sub, md.Messages()); err != nil {
				return err
			}
			addEnums(sub, md.Enums())
			if len(sub) == 0 {
				delete(m, "nested")
			}
		}
		ns[string(md.Name())] = m
	}
	return nil
}

func addEnums(ns map[string]any, enums protoreflect.EnumDescriptors) {
	for i := range enums.Len() {
		ed := enums.Get(i)
		values := map[string]int32{}
		vs := ed.Values()
		for j := range vs.Len() {
			values[string(vs.Get(j).Name())] = int32(vs.Get(j).Number())
		}
		ns[string(ed.Name())] = map[string]any{"values": values}
	}
}

// jsField is one field of a protobufjs JSON descriptor.
func jsField(fd protoreflect.FieldDescriptor) (map[string]any, error) {
	f := map[string]any{"id": int32(fd.Number())}
	if fd.IsMap() {
		k, err := jsType(fd.MapKey())
		if err != nil {
			return nil, err
		}
		v, err := jsType(fd.MapValue())
		if err != nil {
			return nil, err
		}
		f["keyType"], f["type"] = k, v
		return f, nil
	}
	t, err := jsType(fd)
	if err != nil {
		return nil, err
	}
	f["type"] = t
	if fd.IsList() {
		f["rule"] = "repeated"
	}
	return f, nil
}

// jsType is the protobufjs type name of fd's values: the .proto scalar
// name, or a message or enum's full name with a leading dot.
func jsType(fd protoreflect.FieldDescriptor) (string, error) {
	switch fd.Kind() {
	case protoreflect.MessageKind:
		return "." + string(fd.Message().FullName()), nil
	case protoreflect.EnumKind:
		return "." + string(fd.Enum().FullName()), nil
	case protoreflect.GroupKind:
		return "", fmt.Errorf("server: protobufjs descriptor: group field %s is not supported", fd.FullName())
	}
	return fd.Kind().String(), nil // "int64", "string", "bytes", ...
}
