// Package fidelity compares a value that went through a codec with the
// original, and says where they first differ.
//
// Diff is a deep comparison like reflect.DeepEqual with three differences:
// time.Time values are equal when they denote the same instant (time.Time.Equal;
// a codec that keeps the instant but not the location is faithful enough for
// every payload serbench carries); a nil and an empty slice or map differ
// (encoding/json writes one as null and the other as [] or {}); and the result
// names the first differing path with both values instead of a bare bool.
package fidelity

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"time"
	"unsafe"
)

// Mismatch is the first difference Diff found.
type Mismatch struct {
	// Path locates the value from the root: ".Items[2].Price", `.Meta["src"]`,
	// "" for the root itself.
	Path string
	// Want and Got describe the original and the decoded value at Path.
	Want, Got string
}

// Error implements error: `fidelity: .Items[2].Price: want 12.5, got 12`.
func (m *Mismatch) Error() string {
	p := m.Path
	if p == "" {
		p = "(root)"
	}
	return fmt.Sprintf("fidelity: %s: want %s, got %s", p, m.Want, m.Got)
}

var timeType = reflect.TypeFor[time.Time]()

// maxDepth bounds recursion so cyclic values cannot overflow the stack.
const maxDepth = 1000

// Diff returns nil when got equals want in the sense of the package doc, and
// a *Mismatch naming the first difference otherwise. Maps are visited in
// sorted key order so the difference reported is the same on every run.
func Diff(want, got any) error {
	if m := diff(reflect.ValueOf(want), reflect.ValueOf(got), "", 0); m != nil {
		return m
	}
	return nil
}

func diff(w, g reflect.Value, path string, depth int) *Mismatch {
	if depth > maxDepth {
		return &Mismatch{Path: path, Want: "value nested deeper than 1000 levels", Got: "not compared"}
	}
	if !w.IsValid() || !g.IsValid() {
		if w.IsValid() == g.IsValid() {
			return nil
		}
		return &Mismatch{Path: path, Want: show(w), Got: show(g)}
	}
	w, g = readable(w), readable(g)
	if w.Type() != g.Type() {
		return &Mismatch{Path: path, Want: fmt.Sprintf("%s of type %s", show(w), w.Type()), Got: fmt.Sprintf("%s of type %s", show(g), g.Type())}
	}
	if w.Type() == timeType && w.CanInterface() && g.CanInterface() {
		wt, gt := w.Interface().(time.Time), g.Interface().(time.Time)
		if !wt.Equal(gt) {
			return &Mismatch{Path: path, Want: wt.Format(time.RFC3339Nano), Got: gt.Format(time.RFC3339Nano)}
		}
		return nil
	}
	switch w.Kind() {
	case reflect.Pointer, reflect.Interface:
		if w.IsNil() || g.IsNil() {
			if w.IsNil() != g.IsNil() {
				return &Mismatch{Path: path, Want: show(w), Got: show(g)}
			}
			return nil
		}
		return diff(w.Elem(), g.Elem(), path, depth+1)
	case reflect.Struct:
		for i := range w.NumField() {
			f := w.Type().Field(i)
			if m := diff(w.Field(i), g.Field(i), path+"."+f.Name, depth+1); m != nil {
				return m
			}
		}
		return nil
	case reflect.Slice:
		if w.IsNil() != g.IsNil() {
			return &Mismatch{Path: path, Want: show(w), Got: show(g)}
		}
		fallthrough
	case reflect.Array:
		if w.Len() != g.Len() {
			return &Mismatch{Path: path, Want: fmt.Sprintf("length %d", w.Len()), Got: fmt.Sprintf("length %d", g.Len())}
		}
		for i := range w.Len() {
			if m := diff(w.Index(i), g.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1); m != nil {
				return m
			}
		}
		return nil
	case reflect.Map:
		if w.IsNil() != g.IsNil() {
			return &Mismatch{Path: path, Want: show(w), Got: show(g)}
		}
		keys := w.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		for _, k := range keys {
			kp := fmt.Sprintf("%s[%#v]", path, k)
			gv := g.MapIndex(k)
			if !gv.IsValid() {
				return &Mismatch{Path: kp, Want: show(w.MapIndex(k)), Got: "missing key"}
			}
			if m := diff(w.MapIndex(k), gv, kp, depth+1); m != nil {
				return m
			}
		}
		if g.Len() != w.Len() {
			for _, k := range g.MapKeys() {
				if !w.MapIndex(k).IsValid() {
					return &Mismatch{Path: fmt.Sprintf("%s[%#v]", path, k), Want: "no such key", Got: show(g.MapIndex(k))}
				}
			}
		}
		return nil
	case reflect.Float32, reflect.Float64:
		wf, gf := w.Float(), g.Float()
		if wf == gf || (math.IsNaN(wf) && math.IsNaN(gf)) {
			return nil
		}
		return &Mismatch{Path: path, Want: show(w), Got: show(g)}
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		if w.IsNil() && g.IsNil() {
			return nil
		}
		return &Mismatch{Path: path, Want: w.Type().String(), Got: "not comparable"}
	default:
		if !w.CanInterface() || !g.CanInterface() {
			// An unexported field that is not addressable (inside a map
			// value): compare what fmt prints, which reads it anyway.
			if fmt.Sprint(w) != fmt.Sprint(g) {
				return &Mismatch{Path: path, Want: show(w), Got: show(g)}
			}
			return nil
		}
		if w.Interface() != g.Interface() {
			return &Mismatch{Path: path, Want: show(w), Got: show(g)}
		}
		return nil
	}
}

// readable returns v, or, when v was reached through an unexported field
// (so reflect refuses Interface) and is addressable, the same memory seen
// without that restriction. Diff only reads through it. Codecs never see
// unexported fields, so a value holding one set differs after any round
// trip, and Diff must be able to say so rather than panic.
func readable(v reflect.Value) reflect.Value {
	if v.IsValid() && !v.CanInterface() && v.CanAddr() {
		return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	}
	return v
}

// show prints a value briefly: strings quoted, long values cut to 60 bytes.
func show(v reflect.Value) string {
	if !v.IsValid() {
		return "nothing"
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
		if v.IsNil() {
			return "nil"
		}
	}
	var s string
	switch v.Kind() {
	case reflect.Pointer:
		return "&" + show(v.Elem())
	case reflect.Interface:
		return show(v.Elem())
	case reflect.Slice, reflect.Map:
		if v.Len() == 0 {
			if v.Kind() == reflect.Slice {
				return "empty slice"
			}
			return "empty map"
		}
		s = fmt.Sprint(v)
	case reflect.String:
		s = fmt.Sprintf("%q", v.String())
	default:
		s = fmt.Sprint(v) // not v.Interface(): v may be an unexported field
	}
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
