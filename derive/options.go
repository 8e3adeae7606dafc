package derive

import (
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"github.com/serbench/serbench/codec"
)

// Options change what is derived from a type. The zero value maps every
// field; the package-level functions (Derive, DeriveProto, NewProtoCodec,
// ...) are those of the zero Options.
type Options struct {
	// Skip names fields to leave out of the schemas, of the conversion
	// code and of the derived codecs, for fields you cannot change (an
	// interface{} field of a library's struct, say, where tagging it
	// `json:"-"` is not yours to do). Each is a path from the root type:
	// field names joined by dots, each the Go field name or, when no field
	// has that Go name, the name of its json tag ("Account.Extensions" or
	// "account.extensions"). A path goes through pointers, slices, arrays
	// and map values as if they were not there ("Lines.Notes" for the
	// Notes of every element of Lines), and through untagged embedded
	// structs as encoding/json does ("Labels" for a field of an embedded
	// Meta; "Meta" names the embedded struct itself). A leading "." and a
	// "[]" or "{}" after a name are allowed, so the path of a Loss can be
	// pasted. A field is left out of its struct type, wherever that type
	// appears (the schemas have one message per Go type), and is listed
	// in Schema.Losses ("left out by Options.Skip"). A path that names no
	// field is an error naming the path and the fields that exist there.
	Skip []string
}

// lostSkipped is the loss of a field Options.Skip leaves out.
const lostSkipped = "left out by Options.Skip: not in the schema, never encoded, decodes as the zero value"

// skipSet is Options.Skip resolved against a root type: the fields left
// out, by the struct type that declares them and their index in it, with
// the path as given.
type skipSet map[reflect.Type]map[int]string

func (s skipSet) has(t reflect.Type, i int) bool {
	_, ok := s[t][i]
	return ok
}

// resolve returns the fields o.Skip names in root, a struct type (or a
// pointer to one); nil for none. Errors: a path that names no field, with
// the fields that exist where it fails.
func (o Options) resolve(root reflect.Type) (skipSet, error) {
	if len(o.Skip) == 0 {
		return nil, nil
	}
	set := skipSet{}
	for _, p := range o.Skip {
		names := skipNames(p)
		if len(names) == 0 {
			return nil, fmt.Errorf("derive: Options.Skip %q: an empty path (want field names joined by dots, such as Account.Extensions)", p)
		}
		t := root
		for i, name := range names {
			st := structUnder(t)
			if st == nil {
				return nil, fmt.Errorf("derive: Options.Skip %q: %s is a %s, which has no fields", p, strings.Join(names[:i], "."), t)
			}
			at := "the root type " + st.String()
			if i > 0 {
				at = fmt.Sprintf("%s (%s)", strings.Join(names[:i], "."), st)
			}
			fields := visibleFields(st)
			f, ok := findField(fields, name)
			if !ok {
				return nil, fmt.Errorf("derive: Options.Skip %q: %s has no field %q; its fields: %s", p, at, name, listFields(fields))
			}
			if i == len(names)-1 {
				if set[f.owner] == nil {
					set[f.owner] = map[int]string{}
				}
				set[f.owner][f.index] = p
			}
			t = f.typ
		}
	}
	return set, nil
}

// skipNames splits a Skip path into field names, dropping a leading "."
// and the "[]" and "{}" of a Loss's path.
func skipNames(p string) []string {
	p = strings.TrimPrefix(strings.TrimSpace(p), ".")
	if p == "" {
		return nil
	}
	names := strings.Split(p, ".")
	for i, n := range names {
		for strings.HasSuffix(n, "[]") || strings.HasSuffix(n, "{}") {
			n = n[:len(n)-2]
		}
		names[i] = n
	}
	return names
}

// structUnder is the struct type under t's pointers, slices, arrays and
// map values; nil when there is none (or it is a time).
func structUnder(t reflect.Type) reflect.Type {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			if isTime(t) {
				return nil
			}
			return t
		default:
			return nil
		}
	}
}

// visibleField is a field a Skip path can name.
type visibleField struct {
	owner          reflect.Type // the struct type that declares it
	index          int          // its index in owner
	goName, json   string       // json: the json tag's name, "" for none
	typ            reflect.Type
	embeddedStruct bool // an untagged embedded struct, named to leave it out whole
}

// visibleFields are the fields of struct t as the model sees them: its
// own, and those of untagged embedded structs, which are flattened.
func visibleFields(t reflect.Type) []visibleField {
	var out []visibleField
	var walk func(t reflect.Type, embedding map[reflect.Type]bool)
	walk = func(t reflect.Type, embedding map[reflect.Type]bool) {
		for i := range t.NumField() {
			sf := t.Field(i)
			name, tagged, omit := jsonName(sf)
			if omit {
				continue
			}
			f := visibleField{owner: t, index: i, goName: sf.Name, typ: sf.Type}
			if tagged {
				f.json = name
			}
			if et := flattened(sf); et != nil {
				f.embeddedStruct = true
				out = append(out, f)
				if !embedding[et] {
					embedding[et] = true
					walk(et, embedding)
					delete(embedding, et)
				}
				continue
			}
			out = append(out, f)
		}
	}
	walk(t, map[reflect.Type]bool{t: true})
	return out
}

// findField finds name among fields: by Go name first, then by json name.
func findField(fields []visibleField, name string) (visibleField, bool) {
	for _, f := range fields {
		if f.goName == name {
			return f, true
		}
	}
	for _, f := range fields {
		if f.json != "" && f.json == name {
			return f, true
		}
	}
	return visibleField{}, false
}

// listFields is "ID (id), Name, Extensions (ext)": the Go names, with
// the json name when it differs.
func listFields(fields []visibleField) string {
	var names []string
	for _, f := range fields {
		if f.embeddedStruct {
			continue
		}
		n := f.goName
		if f.json != "" && f.json != f.goName {
			n += " (" + f.json + ")"
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// jsonName is the name of sf's json tag, whether it has one, and whether
// the tag leaves the field out (`json:"-"`).
func jsonName(sf reflect.StructField) (name string, tagged, omit bool) {
	tag, ok := sf.Tag.Lookup("json")
	name, _, _ = strings.Cut(tag, ",")
	if ok && name == "-" && !strings.HasPrefix(tag, "-,") {
		return "", false, true
	}
	return name, name != "", false
}

// flattened returns the struct type of sf when sf is an embedded struct
// (or pointer to one) without a json name, whose fields encoding/json and
// the model flatten into the struct that embeds it; nil otherwise (an
// embedded struct with a json name, `json:"metadata"`, is one field, as
// encoding/json nests it; a time is a field).
func flattened(sf reflect.StructField) reflect.Type {
	if !sf.Anonymous {
		return nil
	}
	if _, tagged, _ := jsonName(sf); tagged {
		return nil
	}
	et := sf.Type
	if et.Kind() == reflect.Pointer {
		et = et.Elem()
	}
	if et.Kind() != reflect.Struct || isTime(et) {
		return nil
	}
	return et
}

// Omit returns a copy of v, a pointer to a struct, with the fields
// o.Skip names set to their zero values: the value the derived codecs
// give back at best. Parts of v that hold no such field are shared, not
// copied; v is not changed. With no Skip it returns v. Errors: those of
// a Skip path that names no field, v not a pointer to a struct.
func (o Options) Omit(v any) (any, error) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.Type().Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("derive: Omit wants a pointer to a struct, not %T", v)
	}
	set, err := o.resolve(rv.Type().Elem())
	if err != nil || set == nil {
		return v, err
	}
	c := &omitter{set: set, holds: map[reflect.Type]bool{}}
	return c.copy(rv).Interface(), nil
}

// omitter copies values with the fields of set zeroed.
type omitter struct {
	set   skipSet
	holds map[reflect.Type]bool // whether a value of the type can hold a skipped field
}

// reaches reports whether a value of type t can hold a field of c.set.
func (c *omitter) reaches(t reflect.Type) bool {
	if r, ok := c.holds[t]; ok {
		return r
	}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type) bool
	walk = func(t reflect.Type) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			return walk(t.Elem())
		case reflect.Map:
			return walk(t.Key()) || walk(t.Elem())
		case reflect.Struct:
			if len(c.set[t]) > 0 {
				return true
			}
			for i := range t.NumField() {
				if walk(t.Field(i).Type) {
					return true
				}
			}
		}
		return false
	}
	r := walk(t)
	c.holds[t] = r
	return r
}

// copy returns v, or a copy of it with the skipped fields zeroed when it
// can hold one.
func (c *omitter) copy(v reflect.Value) reflect.Value {
	t := v.Type()
	if !c.reaches(t) {
		return v
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		p := reflect.New(t.Elem())
		p.Elem().Set(c.copy(v.Elem()))
		return p
	case reflect.Struct:
		n := reflect.New(t).Elem()
		n.Set(v)
		for i := range t.NumField() {
			f := settable(n.Field(i))
			if c.set.has(t, i) {
				f.SetZero()
			} else if c.reaches(f.Type()) {
				f.Set(c.copy(f))
			}
		}
		return n
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeSlice(t, v.Len(), v.Len())
		for i := range v.Len() {
			n.Index(i).Set(c.copy(v.Index(i)))
		}
		return n
	case reflect.Array:
		n := reflect.New(t).Elem()
		for i := range v.Len() {
			n.Index(i).Set(c.copy(v.Index(i)))
		}
		return n
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeMapWithSize(t, v.Len())
		it := v.MapRange()
		for it.Next() {
			n.SetMapIndex(c.copy(it.Key()), c.copy(it.Value()))
		}
		return n
	}
	return v
}

// settable is f, a field of an addressable struct, made settable when it
// is unexported (a Skip path may name an unexported field, which no
// reflection codec sees).
func settable(f reflect.Value) reflect.Value {
	if f.CanSet() {
		return f
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// Derive is the package's Derive with o.
func (o Options) Derive(t reflect.Type, f Format) (*Schema, error) {
	switch f {
	case Proto:
		p, err := o.DeriveProto(t)
		if err != nil {
			return nil, err
		}
		return &p.Schema, nil
	case Avro:
		return o.DeriveAvro(t)
	case FlatBuffers:
		return o.DeriveFlatBuffers(t)
	}
	return nil, fmt.Errorf("%w %q (want proto, avsc or fbs)", ErrUnknownFormat, f)
}

// ProtoCodec is NewProtoCodec with o.
func (o Options) ProtoCodec() codec.Codec { return protoCodec{o} }

// AvroCodec is NewAvroCodec with o.
func (o Options) AvroCodec() codec.Codec { return avroCodec{o} }

// HyperpbCodec is NewHyperpbCodec with o.
func (o Options) HyperpbCodec() codec.Codec { return hyperpbCodec{o} }
