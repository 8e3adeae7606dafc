package serbench

import (
	"errors"
	"fmt"
	"reflect"
)

// MaxDepth is how deeply the value given to Benchmark, Check or Fidelity
// may nest (pointers, structs, slices, maps, interfaces) before it is
// rejected: 10,000 levels, the limit of encoding/json/v2's decoder. Deeper
// values would overflow some codecs' stacks, which no test binary survives.
const MaxDepth = 10000

// ErrCycle is wrapped by the error for a value that refers to itself
// through pointers, maps, slices or interfaces. Most codecs would recurse
// until the goroutine's stack overflows, which cannot be recovered.
var ErrCycle = errors.New("serbench: the value refers to itself")

// sampleOf returns v as the non-nil pointer codecs bind to: v itself when
// it is one, or a pointer to a copy of v. It rejects nil, nil pointers,
// cycles and values nested deeper than MaxDepth, naming the Go type.
func sampleOf(v any) (any, error) {
	if v == nil {
		return nil, errors.New("serbench: the value is nil; pass a pointer to a value of your type, such as &Order{...}")
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer {
		p := reflect.New(rv.Type())
		p.Elem().Set(rv)
		rv, v = p, p.Interface()
	}
	if rv.IsNil() {
		return nil, fmt.Errorf("serbench: the value is a nil %T; pass a pointer to a value, such as &Order{...}", v)
	}
	if err := walk(rv, "", map[visit]bool{}, 0); err != nil {
		return nil, fmt.Errorf("%w (in a %T)", err, v)
	}
	return v, nil
}

// visit is a reference on the path from the root to the value being walked.
type visit struct {
	ptr uintptr
	typ reflect.Type
}

// walk looks for a reference that is already on the path from the root
// (a cycle), and for nesting deeper than MaxDepth. path names the place
// as fidelity.Mismatch does.
func walk(v reflect.Value, path string, onPath map[visit]bool, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("serbench: the value nests deeper than MaxDepth (%d levels) at %s", MaxDepth, orRoot(path))
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice:
		if v.IsNil() || (v.Kind() == reflect.Slice && v.Len() == 0) {
			return nil
		}
		k := visit{v.Pointer(), v.Type()}
		if onPath[k] {
			return fmt.Errorf("%w at %s", ErrCycle, orRoot(path))
		}
		onPath[k] = true
		defer delete(onPath, k)
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return walk(v.Elem(), path, onPath, depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			if err := walk(v.Field(i), path+"."+v.Type().Field(i).Name, onPath, depth+1); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i), onPath, depth+1); err != nil {
				return err
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if err := walk(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()), onPath, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func orRoot(path string) string {
	if path == "" {
		return "(root)"
	}
	return path
}
