package derive

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"
)

// avroMirror is how avro/derived hands a Go type to hamba/avro when
// hamba/avro cannot take the type as DeriveAvro's schema maps it: Go
// uint64 and uint (hamba/avro has no mapping of them to long), a time
// wrapper (it takes only types convertible to time.Time as
// timestamp-micros), an embedded field that the schema keeps as one field
// (hamba/avro flattens every embedded struct) and a Go array other than
// [N]byte (it takes slices only). The mirror is a type built with
// reflect.StructOf per message that has such a field, with int64,
// time.Time, a plain field and a slice in their place and the schema's
// field names as json tags; the value is copied into it and back
// (avro/derived's op=convert).
type avroMirror struct {
	msgs  map[*msg]*mirrorMsg
	needs map[*msg]bool // the messages that need a mirror
	errs  []FieldError
}

// mirrorMsg is the mirror of one message; goT is nil when the message
// needs none.
type mirrorMsg struct {
	goT reflect.Type
}

// lostAvroUint64 is the loss of a Go uint64 or uint as an Avro long.
const lostAvroUint64 = "values of 2^63 and above are refused at encode time (an Avro long is signed)"

// newAvroMirror plans the mirror of the messages of m; nil when none
// needs one. Errors: a recursive type that needs a mirror (a type built
// with reflect.StructOf cannot refer to itself), as FieldErrors.
func newAvroMirror(m *mapper) *avroMirror {
	needs := map[*msg]bool{}
	for changed := true; changed; {
		changed = false
		for _, x := range m.b.msgs {
			if needs[x] {
				continue
			}
			for _, f := range x.fields {
				if f.embedded || mirrored(f.typ, needs) {
					needs[x], changed = true, true
					break
				}
			}
		}
	}
	if !needs[m.root] {
		return nil
	}
	a := &avroMirror{msgs: map[*msg]*mirrorMsg{}, needs: needs}
	for _, x := range m.b.msgs {
		if !needs[x] {
			a.msgs[x] = &mirrorMsg{}
		}
	}
	a.message(m.root, map[*msg]bool{}, "")
	return a
}

// mirrored reports whether type t needs a mirror, needs holding the
// messages found to need one so far.
func mirrored(t *typ, needs map[*msg]bool) bool {
	switch t.kind {
	case kUint:
		return t.bits == 64
	case kTime:
		return t.goT != timeType
	case kArray:
		return true
	case kStruct:
		return needs[t.msg]
	case kPtr, kSlice, kMap:
		return mirrored(t.elem, needs)
	}
	return false
}

// message builds the mirror type of x, met at path; building names the
// messages whose mirror is being built.
func (a *avroMirror) message(x *msg, building map[*msg]bool, path string) reflect.Type {
	if mm, ok := a.msgs[x]; ok {
		if mm.goT == nil {
			return x.goT
		}
		return mm.goT
	}
	if building[x] {
		a.errs = append(a.errs, FieldError{Path: orRoot(path), GoType: x.goT.String(),
			Reason: "avro/derived: a recursive type with " + a.cause(x, map[*msg]bool{}) +
				", which hamba/avro cannot take as it is and a mirror type (reflect.StructOf) cannot refer to itself; " + leaveOut(path)})
		return x.goT
	}
	building[x] = true
	defer delete(building, x)
	fields := make([]reflect.StructField, len(x.fields))
	for i, f := range x.fields {
		fields[i] = reflect.StructField{Name: "F" + strconv.Itoa(i), Type: a.typeOf(f.typ, building, f.path), Tag: reflect.StructTag(`json:"` + f.name + `"`)}
	}
	mt := reflect.StructOf(fields)
	a.msgs[x] = &mirrorMsg{goT: mt}
	return mt
}

// cause names the first field of x, or of a message below it, that
// makes x need a mirror: its path, Go type and what it is ("a uint64
// field .ID (uint64)"); seen holds the messages already looked into.
func (a *avroMirror) cause(x *msg, seen map[*msg]bool) string {
	seen[x] = true
	for _, f := range x.fields {
		if f.embedded {
			return fmt.Sprintf("an embedded time field %s (%s)", f.path, f.typ.goT)
		}
		if what := mirrorKind(f.typ); what != "" {
			return fmt.Sprintf("a %s field %s (%s)", what, f.path, f.typ.goT)
		}
	}
	for _, f := range x.fields {
		if y := structOf(f.typ); y != nil && a.needs[y] && !seen[y] {
			return a.cause(y, seen)
		}
	}
	return "a field hamba/avro cannot take as it is"
}

// mirrorKind says what in t needs a mirror whatever the messages it
// holds: "uint64", "time wrapper" or "Go array"; "" for none.
func mirrorKind(t *typ) string {
	switch t.kind {
	case kUint:
		if t.bits == 64 {
			return "uint64 or uint"
		}
	case kTime:
		if t.goT != timeType {
			return "time wrapper"
		}
	case kArray:
		return "Go array"
	case kPtr, kSlice, kMap:
		return mirrorKind(t.elem)
	}
	return ""
}

// typeOf is the mirror's type for t.
func (a *avroMirror) typeOf(t *typ, building map[*msg]bool, path string) reflect.Type {
	switch t.kind {
	case kUint:
		if t.bits == 64 {
			return reflect.TypeFor[int64]()
		}
	case kTime:
		return timeType
	case kStruct:
		return a.message(t.msg, building, path)
	case kPtr:
		return reflect.PointerTo(a.typeOf(t.elem, building, path))
	case kSlice, kArray:
		return reflect.SliceOf(a.typeOf(t.elem, building, path+"[]"))
	case kMap:
		return reflect.MapOf(t.key.goT, a.typeOf(t.elem, building, path+"{}"))
	}
	return t.goT
}

// same reports whether t's mirror type is t's own.
func (a *avroMirror) same(t *typ) bool {
	switch t.kind {
	case kUint:
		return t.bits != 64
	case kTime:
		return t.goT == timeType
	case kArray:
		return false
	case kStruct:
		return a.msgs[t.msg].goT == nil
	case kPtr, kSlice, kMap:
		return a.same(t.elem)
	}
	return true
}

// to sets dst, of the mirror type of t, from src, a Go value of type t at
// path. Errors: a uint64 of 2^63 or more, naming path and value.
func (a *avroMirror) to(dst, src reflect.Value, t *typ, path string) error {
	if a.same(t) {
		dst.Set(src)
		return nil
	}
	switch t.kind {
	case kUint:
		u := src.Uint()
		if u > math.MaxInt64 {
			return fmt.Errorf("%s: %s: %d is 2^63 or more, which an Avro long (signed) cannot hold", AvroID, orRoot(path), u)
		}
		dst.SetInt(int64(u))
	case kTime:
		dst.Set(reflect.ValueOf(timeOf(src)))
	case kPtr:
		if src.IsNil() {
			return nil
		}
		dst.Set(reflect.New(dst.Type().Elem()))
		return a.to(dst.Elem(), src.Elem(), t.elem, path)
	case kSlice, kArray:
		if t.kind == kSlice && src.IsNil() {
			return nil
		}
		dst.Set(reflect.MakeSlice(dst.Type(), src.Len(), src.Len()))
		for i := range src.Len() {
			if err := a.to(dst.Index(i), src.Index(i), t.elem, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case kMap:
		if src.IsNil() {
			return nil
		}
		out := reflect.MakeMapWithSize(dst.Type(), src.Len())
		e := reflect.New(dst.Type().Elem()).Elem()
		it := src.MapRange()
		for it.Next() {
			e.SetZero()
			if err := a.to(e, it.Value(), t.elem, fmt.Sprintf("%s[%q]", path, it.Key())); err != nil {
				return err
			}
			out.SetMapIndex(it.Key(), e)
		}
		dst.Set(out)
	case kStruct:
		for i, f := range t.msg.fields {
			fv, err := src.FieldByIndexErr(f.index)
			if err != nil {
				continue // a nil embedded pointer: its fields are absent
			}
			if err := a.to(dst.Field(i), fv, f.typ, path+fieldPath(t.goT, f.index)); err != nil {
				return err
			}
		}
	}
	return nil
}

// from sets dst, a zero Go value of type t at path, from src, a value of
// the mirror type of t. Errors: a list longer than a Go array, a
// negative long for a uint64 or uint (from another writer).
func (a *avroMirror) from(dst, src reflect.Value, t *typ, path string) error {
	if a.same(t) {
		dst.Set(src)
		return nil
	}
	switch t.kind {
	case kUint:
		x := src.Int()
		if x < 0 {
			return fmt.Errorf("%s: %s: %d, a negative long for a %s", AvroID, orRoot(path), x, t.goT)
		}
		dst.SetUint(uint64(x))
	case kTime:
		setTime(dst, src.Interface().(time.Time))
	case kPtr:
		if src.IsNil() {
			return nil
		}
		dst.Set(reflect.New(t.elem.goT))
		return a.from(dst.Elem(), src.Elem(), t.elem, path)
	case kSlice, kArray:
		n := src.Len()
		if t.kind == kArray {
			if n > t.fix {
				return fmt.Errorf("%s: %s: %d elements for a %s", AvroID, orRoot(path), n, t.goT)
			}
		} else {
			if src.IsNil() {
				return nil
			}
			dst.Set(reflect.MakeSlice(t.goT, n, n))
		}
		for i := range n {
			if err := a.from(dst.Index(i), src.Index(i), t.elem, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case kMap:
		if src.IsNil() {
			return nil
		}
		out := reflect.MakeMapWithSize(t.goT, src.Len())
		it := src.MapRange()
		for it.Next() {
			e := reflect.New(t.elem.goT).Elem()
			if err := a.from(e, it.Value(), t.elem, fmt.Sprintf("%s[%q]", path, it.Key())); err != nil {
				return err
			}
			out.SetMapIndex(it.Key(), e)
		}
		dst.Set(out)
	case kStruct:
		for i, f := range t.msg.fields {
			fv := src.Field(i)
			if f.viaPtr && fv.IsZero() {
				continue // leaves a nil embedded pointer nil
			}
			if err := a.from(fieldAlloc(dst, f.index), fv, f.typ, path+fieldPath(t.goT, f.index)); err != nil {
				return err
			}
		}
	}
	return nil
}
