package export

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// typeWriter writes Go source for the named types reachable from a set of
// root types: the exported module gets copies of the scenario types, so its
// benchmarks work on the same Go types as serbench's, without importing
// serbench.
type typeWriter struct {
	defs    map[string]string       // type name -> "type Name ..." source
	origin  map[string]reflect.Type // type name -> the type it was made from
	imports map[string]bool         // standard library packages referenced
}

func newTypeWriter() *typeWriter {
	return &typeWriter{defs: map[string]string{}, origin: map[string]reflect.Type{}, imports: map[string]bool{}}
}

// methodless reports an error when t (or *t) has methods: a copy without
// them would marshal differently (a custom MarshalJSON, say).
func methodless(t reflect.Type) error {
	if t.NumMethod() > 0 || (t.Kind() != reflect.Interface && reflect.PointerTo(t).NumMethod() > 0) {
		return fmt.Errorf("export: type %v has methods (a copy without them could encode differently)", t)
	}
	return nil
}

// expr returns the Go expression of t, adding definitions of the named
// types it reaches.
func (w *typeWriter) expr(t reflect.Type) (string, error) {
	if t.Name() != "" {
		if t.PkgPath() == "" { // predeclared: string, int64, ...
			return t.Name(), nil
		}
		if isStd(t.PkgPath()) {
			w.imports[t.PkgPath()] = true
			return pkgName(t.PkgPath()) + "." + t.Name(), nil
		}
		return w.define(t)
	}
	if e, ok, err := unnamedExpr(t, w.expr); ok {
		return e, err
	}
	if t.Kind() == reflect.Struct {
		return w.structLit(t)
	}
	return "", fmt.Errorf("export: cannot write type %v (kind %v)", t, t.Kind())
}

// unnamedExpr returns the Go expression of t when it is an unnamed
// pointer, slice, array, map or empty interface type, writing the types it
// is made of with elem; ok is false for any other type.
func unnamedExpr(t reflect.Type, elem func(reflect.Type) (string, error)) (e string, ok bool, err error) {
	switch t.Kind() {
	case reflect.Pointer:
		e, err := elem(t.Elem())
		return "*" + e, true, err
	case reflect.Slice:
		e, err := elem(t.Elem())
		return "[]" + e, true, err
	case reflect.Array:
		e, err := elem(t.Elem())
		return "[" + strconv.Itoa(t.Len()) + "]" + e, true, err
	case reflect.Map:
		k, err := elem(t.Key())
		if err != nil {
			return "", true, err
		}
		v, err := elem(t.Elem())
		return "map[" + k + "]" + v, true, err
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return "any", true, nil
		}
	}
	return "", false, nil
}

// define writes "type Name <underlying>" for a named type of a non-standard
// package and returns Name.
func (w *typeWriter) define(t reflect.Type) (string, error) {
	name := t.Name()
	if strings.ContainsAny(name, "[]") {
		return "", fmt.Errorf("export: cannot copy generic type %v", t)
	}
	if prev, ok := w.origin[name]; ok {
		if prev != t {
			return "", fmt.Errorf("export: two types named %s (%v and %v)", name, prev, t)
		}
		return name, nil
	}
	if err := methodless(t); err != nil {
		return "", err
	}
	w.origin[name] = t
	var under string
	var err error
	if t.Kind() == reflect.Struct {
		under, err = w.structLit(t)
	} else {
		under, err = w.expr(underlying(t))
	}
	if err != nil {
		return "", err
	}
	w.defs[name] = "type " + name + " " + under
	return name, nil
}

// underlying returns the unnamed type with t's structure (for a named
// non-struct type such as `type Kind string`).
func underlying(t reflect.Type) reflect.Type {
	switch t.Kind() {
	case reflect.Pointer:
		return reflect.PointerTo(t.Elem())
	case reflect.Slice:
		return reflect.SliceOf(t.Elem())
	case reflect.Array:
		return reflect.ArrayOf(t.Len(), t.Elem())
	case reflect.Map:
		return reflect.MapOf(t.Key(), t.Elem())
	}
	// A basic kind: the predeclared type of that kind.
	for _, b := range basics {
		if b.Kind() == t.Kind() {
			return b
		}
	}
	return t
}

var basics = []reflect.Type{
	reflect.TypeFor[bool](), reflect.TypeFor[string](),
	reflect.TypeFor[int](), reflect.TypeFor[int8](), reflect.TypeFor[int16](), reflect.TypeFor[int32](), reflect.TypeFor[int64](),
	reflect.TypeFor[uint](), reflect.TypeFor[uint8](), reflect.TypeFor[uint16](), reflect.TypeFor[uint32](), reflect.TypeFor[uint64](),
	reflect.TypeFor[uintptr](), reflect.TypeFor[float32](), reflect.TypeFor[float64](),
	reflect.TypeFor[complex64](), reflect.TypeFor[complex128](),
}

func (w *typeWriter) structLit(t reflect.Type) (string, error) {
	var b strings.Builder
	b.WriteString("struct {\n")
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			return "", fmt.Errorf("export: %v has an unexported field %s", t, f.Name)
		}
		e, err := w.expr(f.Type)
		if err != nil {
			return "", err
		}
		if f.Anonymous {
			b.WriteString("\t" + e)
		} else {
			b.WriteString("\t" + f.Name + " " + e)
		}
		if tag := string(f.Tag); tag != "" && !strings.Contains(tag, "`") {
			b.WriteString(" `" + tag + "`")
		} else if tag != "" {
			b.WriteString(" " + strconv.Quote(tag))
		}
		b.WriteString("\n")
	}
	b.WriteString("}")
	return b.String(), nil
}

// source returns the definitions sorted by name.
func (w *typeWriter) source() string {
	names := make([]string, 0, len(w.defs))
	for n := range w.defs {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(w.defs[n] + "\n\n")
	}
	return b.String()
}

// isStd reports whether an import path belongs to the standard library
// (no dot in its first element).
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

func pkgName(path string) string {
	return path[strings.LastIndex(path, "/")+1:]
}
