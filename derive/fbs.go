package derive

import (
	"fmt"
	"reflect"
	"strings"
)

// Losses of the FlatBuffers mapping.
const (
	lostFbsTime = "time zone (offset and name) and monotonic reading; the instant is kept to the nanosecond and decodes in UTC"
	lostFbsNil  = "a vector cannot hold null: " + lostNilElem
)

// DeriveFlatBuffers returns the FlatBuffers schema of struct type t: a
// table per struct type in the namespace named after t's Go package, with
// t's table as root_type. Integers keep their width (byte ... ulong),
// time.Time is a table Timestamp of Unix seconds and nanoseconds,
// time.Duration a long of nanoseconds, a pointer to a scalar an optional
// scalar (`= null`), a map a vector of key/value tables sorted by key.
// Errors: t is not a struct; *Error for fields FlatBuffers cannot take
// (vectors of vectors, map keys that are not scalars or strings, and those
// of FieldError).
func DeriveFlatBuffers(t reflect.Type) (*Schema, error) {
	return Options{}.DeriveFlatBuffers(t)
}

// DeriveFlatBuffers is the package's DeriveFlatBuffers with o.
func (o Options) DeriveFlatBuffers(t reflect.Type) (*Schema, error) {
	m, err := newMapper(t, FlatBuffers, o)
	if err != nil {
		return nil, err
	}
	ns := m.namespace()
	w := &fbsWriter{mapper: m}
	var body strings.Builder
	for _, x := range m.b.msgs {
		w.table(&body, x)
		for len(w.extra) > 0 {
			e := w.extra[0]
			w.extra = w.extra[1:]
			body.WriteString(e)
		}
	}
	if err := m.err(); err != nil {
		return nil, err
	}
	var text strings.Builder
	text.WriteString(m.header("// "))
	text.WriteString("\nnamespace " + ns + ";\n")
	text.WriteString(body.String())
	if w.timeName != "" {
		fmt.Fprintf(&text, "\n// %s is a time.Time: Unix seconds and nanoseconds within the second.\ntable %s {\n  seconds: long;\n  nanos: int;\n}\n", w.timeName, w.timeName)
	}
	fmt.Fprintf(&text, "\nroot_type %s;\n", m.root.name)
	return &Schema{Format: FlatBuffers, Type: m.root.goT, Name: m.root.name, Text: text.String(), Losses: m.losses}, nil
}

type fbsWriter struct {
	*mapper
	extra    []string // entry tables, written after the table that uses them
	timeName string   // the Timestamp table's name once used
}

func (w *fbsWriter) table(body *strings.Builder, x *msg) {
	fmt.Fprintf(body, "\n// %s is the Go type %s.\ntable %s {\n", x.name, x.goT, x.name)
	seen := map[string]string{}
	for _, f := range x.fields {
		name, ok := w.name(f, seen)
		if !ok {
			continue
		}
		var notes []string
		if f.viaPtr {
			notes = append(notes, "lossy: "+w.embeddedLoss(f))
		}
		ty, ok := w.fbsField(f.path, f.typ, x.name+"_"+camel(name), &notes)
		if !ok {
			continue
		}
		line := fmt.Sprintf("  %s: %s;", name, ty)
		if len(notes) > 0 {
			line += " // " + strings.Join(notes, "; ")
		}
		body.WriteString(line + "\n")
	}
	body.WriteString("}\n")
}

// fbsScalar names a scalar type, "" for others.
func fbsScalar(t *typ) string {
	switch t.kind {
	case kBool:
		return "bool"
	case kInt:
		return map[int]string{8: "byte", 16: "short", 32: "int", 64: "long"}[t.bits]
	case kUint:
		return map[int]string{8: "ubyte", 16: "ushort", 32: "uint", 64: "ulong"}[t.bits]
	case kFloat:
		return map[int]string{32: "float", 64: "double"}[t.bits]
	case kDuration:
		return "long"
	}
	return ""
}

// fbsField maps a table field's type (with its default, for an optional
// scalar); name names an entry table it may need.
func (w *fbsWriter) fbsField(p string, t *typ, name string, notes *[]string) (string, bool) {
	switch t.kind {
	case kPtr:
		if s := fbsScalar(t.elem); s != "" {
			if t.elem.kind == kDuration {
				*notes = append(*notes, "time.Duration in nanoseconds")
			}
			return s + " = null", true
		}
		if t.elem.kind == kSlice {
			*notes = append(*notes, "lossy: "+w.lose(p, t, "vector (absent for nil)", lostPtrSliceNil))
		}
		return w.fbsType(p, t.elem, name, notes)
	case kSlice, kArray:
		e := t.elem
		if e.kind == kPtr {
			*notes = append(*notes, "lossy: "+w.lose(p+"[]", e, "vector element", lostFbsNil))
			e = e.elem
		}
		if e.kind == kSlice || e.kind == kArray || e.kind == kMap || e.kind == kBytes {
			w.fail(p+"[]", e, "FlatBuffers has no vectors of vectors")
			return "", false
		}
		s, ok := w.fbsType(p+"[]", e, name+"Item", notes)
		if t.kind == kArray {
			*notes = append(*notes, "lossy: "+w.lose(p, t, "vector", lostArrayLen))
		}
		return "[" + s + "]", ok
	case kMap:
		k := fbsScalar(t.key)
		if t.key.kind == kString {
			k = "string"
		}
		if k == "" || t.key.kind == kDuration {
			w.fail(p+"{key}", t.key, "a FlatBuffers key field is a scalar or a string")
			return "", false
		}
		var vnotes []string
		v, ok := w.fbsField(p+"{}", t.elem, name+"Value", &vnotes)
		if !ok {
			return "", false
		}
		entry := name + "Entry"
		line := fmt.Sprintf("  value: %s;", v)
		if len(vnotes) > 0 {
			line += " // " + strings.Join(vnotes, "; ")
		}
		w.extra = append(w.extra, fmt.Sprintf("\n// %s is one entry of the map %s (%s).\ntable %s {\n  key: %s (key);\n%s\n}\n", entry, p, t.goT, entry, k, line))
		*notes = append(*notes, "a map: a vector of key/value tables, sorted by key")
		return "[" + entry + "]", true
	}
	return w.fbsType(p, t, name, notes)
}

// fbsType maps a type that is not a pointer or a container.
func (w *fbsWriter) fbsType(p string, t *typ, name string, notes *[]string) (string, bool) {
	if s := fbsScalar(t); s != "" {
		if t.kind == kDuration {
			*notes = append(*notes, "time.Duration in nanoseconds")
		}
		return s, true
	}
	switch t.kind {
	case kString:
		return "string", true
	case kBytes:
		if t.fix > 0 {
			*notes = append(*notes, "lossy: "+w.lose(p, t, "[ubyte]", lostArrayLen))
		}
		return "[ubyte]", true
	case kTime:
		if w.timeName == "" {
			w.timeName = "Timestamp"
			for i := 2; w.b.names[w.timeName]; i++ {
				w.timeName = fmt.Sprintf("Timestamp%d", i)
			}
		}
		*notes = append(*notes, "lossy: "+w.lose(p, t, w.timeName, lostFbsTime))
		return w.timeName, true
	case kStruct:
		return t.msg.name, true
	case kMap, kSlice, kArray:
		return w.fbsField(p, t, name, notes)
	}
	w.fail(p, t, "FlatBuffers has no type of this shape here (a %s)", t.goT.Kind())
	return "", false
}
