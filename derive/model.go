package derive

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode"
)

var (
	timeType     = reflect.TypeFor[time.Time]()
	durationType = reflect.TypeFor[time.Duration]()

	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// isTime reports whether t maps as a time.Time: time.Time itself, or a
// time wrapper, a struct whose one field is an embedded time.Time
// (`type Timestamp struct{ time.Time }`, with or without methods of its
// own, as API clients and platforms declare them).
func isTime(t reflect.Type) bool {
	return t == timeType || isTimeWrapper(t)
}

func isTimeWrapper(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.NumField() == 1 && t.Field(0).Anonymous && t.Field(0).Type == timeType
}

// timeOf is the time.Time of v, a time.Time or a time wrapper.
func timeOf(v reflect.Value) time.Time {
	if v.Type() != timeType {
		v = v.Field(0)
	}
	return v.Interface().(time.Time)
}

// setTime sets dst, a time.Time or a time wrapper, to tm.
func setTime(dst reflect.Value, tm time.Time) {
	if dst.Type() != timeType {
		dst = dst.Field(0)
	}
	dst.Set(reflect.ValueOf(tm))
}

// tkind is what a Go type is to the mappers, whatever its name.
type tkind int

const (
	kBool tkind = iota
	kString
	kBytes // []byte and [N]byte
	kInt   // int8, int16, int32, int64, int; bits in typ.bits
	kUint  // uint8, uint16, uint32, uint64, uint
	kFloat // float32, float64; bits in typ.bits
	kTime
	kDuration
	kStruct
	kSlice
	kArray
	kMap
	kPtr
)

// typ is a Go type as the mappers see it.
type typ struct {
	kind tkind
	bits int          // kInt, kUint, kFloat: 8, 16, 32 or 64 (int and uint are 64)
	fix  int          // kBytes from [N]byte, kArray: N; else 0
	elem *typ         // kSlice, kArray, kPtr, kMap (the value)
	key  *typ         // kMap
	msg  *msg         // kStruct
	goT  reflect.Type // the Go type
}

// msg is a struct type: one message, record or table.
type msg struct {
	name   string // unique within the derivation
	goT    reflect.Type
	fields []*field
}

// field is one field of a message: a struct field, or a field of an
// embedded struct, flattened into the struct that embeds it.
type field struct {
	goName string // the Go field name
	name   string // the json tag's name, or goName
	tagged bool   // name comes from a json tag
	index  []int  // reflect.Value.FieldByIndex path from the message's struct
	viaPtr bool   // index passes through an embedded pointer
	// via is the embedded pointer index passes through first: its path
	// and Go type (viaPtr).
	via  string
	viaT reflect.Type
	// embedded is true for an embedded field that is not flattened (a
	// time, a time wrapper); hamba/avro flattens every embedded struct.
	embedded bool
	path     string // ".Base.ID": where the field is, from the root type
	typ      *typ
}

// FieldError is one field that cannot be mapped, and why.
type FieldError struct {
	// Path locates the field from the root type, as fidelity.Mismatch
	// does: ".Lines[].Notes", ".Meta{}" for a map's values.
	Path string
	// GoType is the field's Go type, as reflect prints it.
	GoType string
	// Reason says why, in a few words.
	Reason string
}

// String returns `.Callback (func()): funcs carry code, not data`.
func (e FieldError) String() string {
	return fmt.Sprintf("%s (%s): %s", e.Path, e.GoType, e.Reason)
}

// builder walks a Go type into msgs, collecting the fields that no format
// can take.
type builder struct {
	msgs   []*msg
	byType map[reflect.Type]*msg
	names  map[string]bool
	errs   []FieldError
	// skip are the fields Options.Skip leaves out; skipped those met, in
	// the order met.
	skip    skipSet
	skipped []skippedField
}

// skippedField is a field Options.Skip left out, where it was met.
type skippedField struct {
	path string
	goT  reflect.Type
}

// build returns the message of root, a struct type, and the messages it
// uses, in the order first met.
func build(root reflect.Type, o Options) (*msg, *builder, error) {
	for root.Kind() == reflect.Pointer {
		root = root.Elem()
	}
	if root.Kind() != reflect.Struct || isTime(root) {
		return nil, nil, fmt.Errorf("derive: %s is not a struct type; schemas are derived from structs", root)
	}
	skip, err := o.resolve(root)
	if err != nil {
		return nil, nil, err
	}
	b := &builder{byType: map[reflect.Type]*msg{}, names: map[string]bool{}, skip: skip}
	m := b.message(root, "", "")
	return m, b, nil
}

func (b *builder) fail(path string, t reflect.Type, format string, args ...any) {
	b.errs = append(b.errs, FieldError{Path: orRoot(path), GoType: t.String(), Reason: fmt.Sprintf(format, args...)})
}

func orRoot(path string) string {
	if path == "" {
		return "(root)"
	}
	return path
}

// message returns the msg of struct type t, making it on first use. hint
// names an anonymous struct after the field that holds it.
func (b *builder) message(t reflect.Type, path, hint string) *msg {
	if m, ok := b.byType[t]; ok {
		return m
	}
	name := typeName(t)
	if name == "" {
		name = hint
	}
	if name == "" {
		name = "Message"
	}
	for i := 2; b.names[name]; i++ {
		name = fmt.Sprintf("%s%d", strings.TrimRight(name, "0123456789"), i)
	}
	b.names[name] = true
	m := &msg{name: name, goT: t}
	b.byType[t] = m // before the fields: a recursive type refers to itself
	b.msgs = append(b.msgs, m)
	b.fields(m, t, nil, nil, path, map[reflect.Type]bool{t: true})
	return m
}

// fields appends the fields of struct t (at index prefix within m's
// struct) to m, flattening embedded structs as encoding/json and
// hamba/avro do.
func (b *builder) fields(m *msg, t reflect.Type, prefix []int, via *field, path string, embedding map[reflect.Type]bool) {
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, omit := jsonName(sf)
		if omit {
			continue // json:"-" leaves the field out
		}
		fpath := path + "." + sf.Name
		if b.skip.has(t, i) {
			b.skipped = append(b.skipped, skippedField{path: fpath, goT: sf.Type})
			continue
		}
		index := append(append([]int(nil), prefix...), i)
		if et := flattened(sf); et != nil {
			if embedding[et] {
				b.fail(fpath, sf.Type, "embeds itself")
				continue
			}
			embedding[et] = true
			if via == nil && sf.Type.Kind() == reflect.Pointer {
				via = &field{path: fpath, viaT: sf.Type}
				b.fields(m, et, index, via, fpath, embedding)
				via = nil
			} else {
				b.fields(m, et, index, via, fpath, embedding)
			}
			delete(embedding, et)
			continue
		}
		if !sf.IsExported() {
			b.fail(fpath, sf.Type, "unexported: no codec that uses reflection can read it (%s)", leaveOut(fpath))
			continue
		}
		f := &field{goName: sf.Name, name: sf.Name, index: index, path: fpath, embedded: sf.Anonymous}
		if via != nil {
			f.viaPtr, f.via, f.viaT = true, via.path, via.viaT
		}
		if name != "" {
			f.name, f.tagged = name, true
		}
		if ptrSlice(sf.Type) {
			// A pointer to a slice, as a field only: the list with presence.
			if e := b.typeOf(sf.Type.Elem(), fpath, sf.Name); e != nil {
				f.typ = &typ{kind: kPtr, elem: e, goT: sf.Type}
			}
		} else {
			f.typ = b.typeOf(sf.Type, fpath, sf.Name)
		}
		if f.typ == nil {
			continue
		}
		for _, o := range m.fields {
			if o.name == f.name {
				b.fail(fpath, sf.Type, "its name %q is also the name of %s", f.name, o.path)
				f = nil
				break
			}
		}
		if f != nil {
			m.fields = append(m.fields, f)
		}
	}
}

// selfMarshaler names the marshal method of struct t ("MarshalJSON",
// "MarshalText") when t has one, on t or *t, and keeps some of its value
// in unexported fields that neither a json:"-" tag nor Options.Skip
// leaves out (a library's quantity or decimal type): the schema would
// hold only the exported rest. "" for any other struct.
func (b *builder) selfMarshaler(t reflect.Type) string {
	hidden := false
	for i := range t.NumField() {
		sf := t.Field(i)
		if _, _, omit := jsonName(sf); !omit && !sf.IsExported() && !sf.Anonymous && !b.skip.has(t, i) {
			hidden = true
			break
		}
	}
	if !hidden {
		return ""
	}
	pt := reflect.PointerTo(t)
	switch {
	case pt.Implements(jsonMarshalerType):
		return "MarshalJSON"
	case pt.Implements(textMarshalerType):
		return "MarshalText"
	}
	return ""
}

// typeOf maps Go type t at path; nil after recording why it cannot.
func (b *builder) typeOf(t reflect.Type, path, hint string) *typ {
	switch {
	case isTime(t):
		return &typ{kind: kTime, goT: t}
	case t == durationType:
		return &typ{kind: kDuration, goT: t}
	}
	switch t.Kind() {
	case reflect.Bool:
		return &typ{kind: kBool, goT: t}
	case reflect.String:
		return &typ{kind: kString, goT: t}
	case reflect.Int, reflect.Int64:
		return &typ{kind: kInt, bits: 64, goT: t}
	case reflect.Int8, reflect.Int16, reflect.Int32:
		return &typ{kind: kInt, bits: t.Bits(), goT: t}
	case reflect.Uint, reflect.Uint64:
		return &typ{kind: kUint, bits: 64, goT: t}
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return &typ{kind: kUint, bits: t.Bits(), goT: t}
	case reflect.Float32, reflect.Float64:
		return &typ{kind: kFloat, bits: t.Bits(), goT: t}
	case reflect.Struct:
		if m := b.selfMarshaler(t); m != "" {
			b.fail(path, t, "%s keeps its value in unexported fields and writes it with its own %s, which no schema can see: fields of this type would decode as the zero value (%s)", t, m, leaveOut(path))
			return nil
		}
		return &typ{kind: kStruct, msg: b.message(t, path, hint), goT: t}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			x := &typ{kind: kBytes, goT: t}
			if t.Kind() == reflect.Array {
				x.fix = t.Len()
			}
			return x
		}
		e := b.typeOf(t.Elem(), path+"[]", hint+"Item")
		if e == nil {
			return nil
		}
		if t.Kind() == reflect.Array {
			return &typ{kind: kArray, fix: t.Len(), elem: e, goT: t}
		}
		return &typ{kind: kSlice, elem: e, goT: t}
	case reflect.Map:
		k := b.typeOf(t.Key(), path+"{key}", hint+"Key")
		v := b.typeOf(t.Elem(), path+"{}", hint+"Value")
		if k == nil || v == nil {
			return nil
		}
		return &typ{kind: kMap, key: k, elem: v, goT: t}
	case reflect.Pointer:
		switch t.Elem().Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Array:
			if !isTime(t.Elem()) {
				b.fail(path, t, "a pointer to a %s here: presence of a container has no equivalent in the formats (a pointer to a slice maps as a struct field only; use the %s itself, or %s)", t.Elem().Kind(), t.Elem().Kind(), leaveOut(path))
				return nil
			}
		}
		e := b.typeOf(t.Elem(), path, hint)
		if e == nil {
			return nil
		}
		return &typ{kind: kPtr, elem: e, goT: t}
	case reflect.Interface:
		b.fail(path, t, "an interface: its dynamic type is not known from the Go type (%s)", leaveOut(path))
	case reflect.Chan:
		b.fail(path, t, "a channel carries no data a schema can describe (%s)", leaveOut(path))
	case reflect.Func:
		b.fail(path, t, "a func is code, not data (%s)", leaveOut(path))
	case reflect.Complex64, reflect.Complex128:
		b.fail(path, t, "complex numbers have no type in these formats (%s)", leaveOut(path))
	case reflect.Uintptr, reflect.UnsafePointer:
		b.fail(path, t, "an address is meaningful only in this process (%s)", leaveOut(path))
	default:
		b.fail(path, t, "kind %s is not mapped (%s)", t.Kind(), leaveOut(path))
	}
	return nil
}

// ptrSlice reports whether t is a pointer to a slice other than []byte:
// a field of that type maps as a list with presence where the format has
// it (a wrapper message in protobuf, a union with null in Avro, a vector
// that may be absent in FlatBuffers).
func ptrSlice(t reflect.Type) bool {
	return t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Slice && t.Elem().Elem().Kind() != reflect.Uint8
}

// leaveOut is the advice for a field at path that cannot be mapped:
// the Options.Skip path that leaves it out (a map's key or value, or a
// list's element, leaves out the field that holds it).
func leaveOut(path string) string {
	var sb strings.Builder
	for i := 0; i < len(path); i++ {
		switch {
		case strings.HasPrefix(path[i:], "[]"):
			i++
		case path[i] == '{':
			j := strings.IndexByte(path[i:], '}')
			if j < 0 {
				j = len(path) - i - 1
			}
			i += j
		default:
			sb.WriteByte(path[i])
		}
	}
	p := strings.TrimPrefix(sb.String(), ".")
	return fmt.Sprintf("leave it out with serbench.Options{Skip: []string{%q}} and serbench init -skip %s, or a json:\"-\" tag on a type of your own", p, p)
}

// typeName is the Go type's name as a schema identifier ("Pair[int]"
// becomes "Pair_int"); "" for an unnamed type.
func typeName(t reflect.Type) string {
	return ident(t.Name())
}

// ident replaces every character that is not a letter, digit or '_' in s
// with '_', trims trailing underscores, and prefixes '_' to a leading
// digit.
func ident(s string) string {
	var sb strings.Builder
	for _, r := range s {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') {
			sb.WriteRune(r)
		} else {
			sb.WriteByte('_')
		}
	}
	out := strings.TrimRight(sb.String(), "_")
	if out != "" && out[0] >= '0' && out[0] <= '9' {
		out = "_" + out
	}
	return out
}

// snake returns the snake_case form of a Go identifier: "CreatedAt"
// becomes "created_at", "ID" "id", "HTTPCode" "http_code".
func snake(s string) string {
	rs := []rune(s)
	var sb strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))) {
				sb.WriteByte('_')
			}
			sb.WriteRune(unicode.ToLower(r))
			continue
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// schemaName is a field's name in the proto and fbs schemas: the json
// tag's name when it is an identifier, else the Go name in snake_case.
func (f *field) schemaName() string {
	if f.tagged {
		if ident(f.name) == f.name {
			return f.name
		}
	}
	return snake(f.goName)
}
