package evolve

import (
	"fmt"
	"reflect"
	"sort"
)

// Record is one value of some version of the order type, by field meaning
// (the evolve tag: "id", "customer", "amount", "status", "note",
// "coupon"). Values are uint64 (unsigned fields), int64 (signed fields and
// Status) or string. A field the version has but the value leaves at zero
// is present with its zero value.
type Record map[string]any

// Fields returns r's field meanings in sorted order.
func (r Record) Fields() []string {
	fs := make([]string, 0, len(r))
	for f := range r {
		fs = append(fs, f)
	}
	sort.Strings(fs)
	return fs
}

// recordOf returns the Record of *T, a pointer to one of the Order
// structs, from its evolve tags.
func recordOf(v any) (Record, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("evolve: record of %T: want a non-nil pointer to a struct", v)
	}
	rv = rv.Elem()
	r := Record{}
	for i := range rv.NumField() {
		name := rv.Type().Field(i).Tag.Get("evolve")
		if name == "" {
			continue
		}
		f := rv.Field(i)
		switch f.Kind() {
		case reflect.Int32, reflect.Int64:
			r[name] = f.Int()
		case reflect.Uint64:
			r[name] = f.Uint()
		case reflect.String:
			r[name] = f.String()
		default:
			return nil, fmt.Errorf("evolve: record of %T: field %s has kind %s", v, name, f.Kind())
		}
	}
	return r, nil
}

// fillFrom sets the fields of the struct *T that v points to from r, by
// evolve tag. Fields r lacks stay zero. An int64 that does not fit an int32
// field is truncated as a Go conversion does: fillFrom is how a writer
// fills its own version, which never holds such a value.
func fillFrom(v any, r Record) error {
	rv := reflect.ValueOf(v).Elem()
	for i := range rv.NumField() {
		name := rv.Type().Field(i).Tag.Get("evolve")
		x, ok := r[name]
		if name == "" || !ok {
			continue
		}
		f := rv.Field(i)
		switch x := x.(type) {
		case int64:
			f.SetInt(x)
		case uint64:
			f.SetUint(x)
		case string:
			f.SetString(x)
		default:
			return fmt.Errorf("evolve: field %s of %T: value of type %T", name, v, x)
		}
	}
	return nil
}

// fieldsOf returns the field meanings of the struct type *T.
func fieldsOf(v any) []string {
	t := reflect.TypeOf(v).Elem()
	var fs []string
	for i := range t.NumField() {
		if name := t.Field(i).Tag.Get("evolve"); name != "" {
			fs = append(fs, name)
		}
	}
	sort.Strings(fs)
	return fs
}

func isZero(x any) bool {
	switch x := x.(type) {
	case nil:
		return true
	case int64:
		return x == 0
	case uint64:
		return x == 0
	case string:
		return x == ""
	}
	return false
}

// same reports whether a and b are the same number or string, whatever
// their Go types (a uint64 ID and an int64 read back compare by value).
func same(a, b any) bool {
	switch a := a.(type) {
	case int64:
		switch b := b.(type) {
		case int64:
			return a == b
		case uint64:
			return a >= 0 && uint64(a) == b
		}
	case uint64:
		switch b := b.(type) {
		case uint64:
			return a == b
		case int64:
			return b >= 0 && uint64(b) == a
		}
	case string:
		b, ok := b.(string)
		return ok && a == b
	case nil:
		return isZero(b)
	}
	return false
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
