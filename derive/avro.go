package derive

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/hamba/avro/v2"
)

// Losses of the Avro mapping.
const (
	lostAvroTime     = "nanoseconds below the microsecond, time zone and monotonic reading; decodes in UTC"
	lostAvroNarrow   = "%s on the wire: a value outside %s's range from another writer is truncated on decode"
	lostAvroNilEmpty = "nil and empty are not told apart (hamba/avro decodes both as empty, not nil)"
)

// avroName is the grammar of an Avro name (Avro 1.11 specification,
// "Names").
var avroName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// DeriveAvro returns the Avro schema of struct type t: a record per
// struct type in the namespace named after t's Go package, field names
// as hamba/avro reads them with Config.TagKey "json" (the json tag's
// name, else the Go name). time.Time is a long with logicalType
// timestamp-micros, time.Duration a long of nanoseconds, a pointer a
// union with null, [N]byte a fixed. Losses are in each field's "doc".
// A uint64 or uint is a long (values of 2^63 and above are refused at
// encode time), a time wrapper a time. The schema is the one avro/derived
// uses, and what it checks is checked here too: hamba/avro parses it and
// encodes and decodes a zero value of t with it (through the mirror type
// of avroMirror where hamba/avro cannot take t's fields as they are), so
// DeriveAvro fails exactly when NewAvroCodec's Bind does. Errors: t is not
// a struct; *Error for fields Avro cannot take (map keys other than
// strings, names that are not Avro names, a recursive type that needs a
// mirror, and those of FieldError); hamba/avro's error.
func DeriveAvro(t reflect.Type) (*Schema, error) {
	return Options{}.DeriveAvro(t)
}

// DeriveAvro is the package's DeriveAvro with o.
func (o Options) DeriveAvro(t reflect.Type) (*Schema, error) {
	s, _, err := o.deriveAvro(t)
	return s, err
}

// avroPlan is what avro/derived runs on: the parsed schema and the
// mirror (nil when hamba/avro takes the type as it is).
type avroPlan struct {
	schema avro.Schema
	root   *msg
	mirror *avroMirror
}

// deriveAvro derives the Avro schema of t and checks that hamba/avro
// round-trips a zero value of t (or of its mirror) with it.
func (o Options) deriveAvro(t reflect.Type) (*Schema, *avroPlan, error) {
	m, err := newMapper(t, Avro, o)
	if err != nil {
		return nil, nil, err
	}
	ns := m.namespace()
	a := &avroWriter{mapper: m, ns: ns, defined: map[*msg]bool{}, fixed: map[string]bool{}}
	root := a.record(m.root)
	mir := newAvroMirror(m)
	if mir != nil {
		m.errs = append(m.errs, mir.errs...)
	}
	if err := m.err(); err != nil {
		return nil, nil, err
	}
	var sb strings.Builder
	writeJSON(&sb, root, "")
	sb.WriteString("\n")
	s := &Schema{Format: Avro, Type: m.root.goT, Name: m.root.name, Text: sb.String(), Losses: m.losses}
	parsed, err := avro.ParseWithCache(s.Text, "", &avro.SchemaCache{})
	if err != nil {
		return nil, nil, fmt.Errorf("derive: avsc: hamba/avro does not parse the schema derived from %s: %w", m.root.goT, err)
	}
	p := &avroPlan{schema: parsed, root: m.root, mirror: mir}
	goT := m.root.goT
	if mir != nil {
		goT = mir.msgs[m.root].goT
	}
	zero := reflect.New(goT)
	data, err := avroAPI.Marshal(parsed, zero.Interface())
	if err == nil {
		err = avroAPI.Unmarshal(parsed, data, reflect.New(goT).Interface())
	}
	if err != nil {
		return nil, nil, fmt.Errorf("derive: avsc: hamba/avro cannot take %s with the schema derived from it: %w", m.root.goT, err)
	}
	return s, p, nil
}

// obj is a JSON object with its keys in order.
type obj []kv

type kv struct {
	k string
	v any // string, int, obj, []any
}

type avroWriter struct {
	*mapper
	ns      string
	defined map[*msg]bool
	fixed   map[string]bool
}

// record returns the definition of x on first use, its name after.
func (a *avroWriter) record(x *msg) any {
	if a.defined[x] {
		return x.name
	}
	a.defined[x] = true
	r := obj{{"type", "record"}, {"name", x.name}}
	if x == a.root {
		r = append(r, kv{"namespace", a.ns}, kv{"doc", strings.TrimSpace(strings.ReplaceAll(a.header(""), "\n", " "))})
	} else {
		r = append(r, kv{"doc", "the Go type " + x.goT.String()})
	}
	var fields []any
	for _, f := range x.fields {
		if !avroName.MatchString(f.name) {
			a.fail(f.path, f.typ, "%q is not an Avro name, and hamba/avro matches fields by their json tag's name", f.name)
			continue
		}
		var notes []string
		if f.viaPtr {
			notes = append(notes, "lossy: "+a.embeddedLoss(f))
		}
		ty, ok := a.avroType(f.path, f.typ, x.name+"_"+f.name, &notes)
		if !ok {
			continue
		}
		fo := obj{{"name", f.name}, {"type", ty}}
		if f.typ.kind == kPtr {
			fo = append(fo, kv{"default", nil})
		}
		if len(notes) > 0 {
			fo = append(fo, kv{"doc", strings.Join(notes, "; ")})
		}
		fields = append(fields, fo)
	}
	return append(r, kv{"fields", fields})
}

// avroType maps t; name names a fixed it may need.
func (a *avroWriter) avroType(p string, t *typ, name string, notes *[]string) (any, bool) {
	narrow := func(avro string) {
		*notes = append(*notes, "lossy: "+a.lose(p, t, avro, fmt.Sprintf(lostAvroNarrow, avro, t.goT.Kind())))
	}
	switch t.kind {
	case kBool:
		return "boolean", true
	case kString:
		return "string", true
	case kBytes:
		if t.fix > 0 {
			if a.fixed[name] {
				return name, true
			}
			a.fixed[name] = true
			return obj{{"type", "fixed"}, {"name", name}, {"size", t.fix}}, true
		}
		*notes = append(*notes, "lossy: "+a.lose(p, t, "bytes", lostAvroNilEmpty))
		return "bytes", true
	case kInt:
		if t.bits == 64 {
			return "long", true
		}
		if t.bits < 32 {
			narrow("int")
		}
		return "int", true
	case kUint:
		switch t.bits {
		case 64:
			*notes = append(*notes, "lossy: "+a.lose(p, t, "long", lostAvroUint64))
			return "long", true
		case 32:
			narrow("long")
			return "long", true
		}
		narrow("int")
		return "int", true
	case kFloat:
		if t.bits == 32 {
			return "float", true
		}
		return "double", true
	case kDuration:
		*notes = append(*notes, "time.Duration in nanoseconds")
		return "long", true
	case kTime:
		*notes = append(*notes, "lossy: "+a.lose(p, t, "long timestamp-micros", lostAvroTime))
		return obj{{"type", "long"}, {"logicalType", "timestamp-micros"}}, true
	case kStruct:
		return a.record(t.msg), true
	case kPtr:
		if t.elem.kind == kSlice {
			*notes = append(*notes, "lossy: "+a.lose(p, t, "union of null and array", lostPtrSliceNil))
		}
		e, ok := a.avroType(p, t.elem, name, notes)
		return []any{"null", e}, ok
	case kSlice, kArray:
		e, ok := a.avroType(p+"[]", t.elem, name+"_item", notes)
		if t.kind == kSlice {
			*notes = append(*notes, "lossy: "+a.lose(p, t, "array", lostAvroNilEmpty))
		} else {
			*notes = append(*notes, "lossy: "+a.lose(p, t, "array", lostArrayLen))
		}
		return obj{{"type", "array"}, {"items", e}}, ok
	case kMap:
		if t.key.kind != kString {
			a.fail(p+"{key}", t.key, "Avro map keys are strings")
			return nil, false
		}
		e, ok := a.avroType(p+"{}", t.elem, name+"_value", notes)
		*notes = append(*notes, "lossy: "+a.lose(p, t, "map", lostAvroNilEmpty))
		return obj{{"type", "map"}, {"values", e}}, ok
	}
	a.fail(p, t, "Avro has no type of this shape here (a %s)", t.goT.Kind())
	return nil, false
}

// writeJSON writes v; a record's fields go one per line, indented, the
// rest on one line.
func writeJSON(sb *strings.Builder, v any, indent string) {
	switch v := v.(type) {
	case obj:
		if len(v) > 0 && v[0].k == "type" && v[0].v == "record" {
			sb.WriteString("{\n")
			in := indent + "  "
			for i, e := range v {
				sb.WriteString(in)
				writeString(sb, e.k)
				sb.WriteString(": ")
				if e.k == "fields" {
					fs := e.v.([]any)
					sb.WriteString("[\n")
					for j, f := range fs {
						sb.WriteString(in + "  ")
						writeJSON(sb, f, in+"  ")
						if j < len(fs)-1 {
							sb.WriteString(",")
						}
						sb.WriteString("\n")
					}
					sb.WriteString(in + "]")
				} else {
					writeJSON(sb, e.v, in)
				}
				if i < len(v)-1 {
					sb.WriteString(",")
				}
				sb.WriteString("\n")
			}
			sb.WriteString(indent + "}")
			return
		}
		sb.WriteString("{")
		for i, e := range v {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeString(sb, e.k)
			sb.WriteString(": ")
			writeJSON(sb, e.v, indent)
		}
		sb.WriteString("}")
	case []any:
		sb.WriteString("[")
		for i, e := range v {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeJSON(sb, e, indent)
		}
		sb.WriteString("]")
	case string:
		writeString(sb, v)
	case nil:
		sb.WriteString("null")
	default:
		fmt.Fprint(sb, v)
	}
}

func writeString(sb *strings.Builder, s string) {
	b, _ := json.Marshal(s) // a string always marshals
	sb.Write(b)
}
