// Package fidelity compares a value that went through a codec with the
// original, and says where they first differ.
//
// Diff is a deep comparison like reflect.DeepEqual with three differences:
// time.Time values are equal when they denote the same instant (time.Time.Equal;
// a codec that keeps the instant but not the location is faithful enough for
// every payload serbench carries); a nil and an empty slice or map differ
// (encoding/json writes one as null and the other as [] or {}); and the result
// names the first differing path with both values instead of a bare bool.
//
// DiffStrict is Diff for values where the location of a time or the sign of
// a zero is the point (the probes of package probe): it also tells apart
// times in different zones and -0 from +0.
//
// Unexported struct fields are compared too (a codec that skips them shows
// up as a difference); comparing them never panics.
package fidelity

import (
	"bytes"
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
	if m := (differ{}).diff(reflect.ValueOf(want), reflect.ValueOf(got), "", 0); m != nil {
		return m
	}
	return nil
}

// DiffStrict is Diff with two more checks: two times are equal only when
// they denote the same instant in locations with the same name
// (time.Location.String: "America/New_York", "UTC", "Local", "" for a
// fixed offset without a name) and the same offset from UTC; two floats are
// equal only when they are equal and have the same sign bit, so -0 and +0
// differ (NaN still equals NaN, whatever its payload). A time's location is
// printed after it in the Mismatch: `2026-01-02T03:04:05-05:00 "America/New_York"`.
func DiffStrict(want, got any) error {
	if m := (differ{strict: true}).diff(reflect.ValueOf(want), reflect.ValueOf(got), "", 0); m != nil {
		return m
	}
	return nil
}

// differ holds the comparison's options.
type differ struct{ strict bool }

func (d differ) diff(w, g reflect.Value, path string, depth int) *Mismatch {
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
		if d.strict && !sameZone(wt, gt) {
			return &Mismatch{Path: path, Want: showZoned(wt), Got: showZoned(gt)}
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
		return d.diff(w.Elem(), g.Elem(), path, depth+1)
	case reflect.Struct:
		for i := range w.NumField() {
			f := w.Type().Field(i)
			if m := d.diff(w.Field(i), g.Field(i), path+"."+f.Name, depth+1); m != nil {
				return m
			}
		}
		return nil
	case reflect.Slice:
		if w.IsNil() != g.IsNil() {
			return &Mismatch{Path: path, Want: show(w), Got: show(g)}
		}
		if w.Type().Elem().Kind() == reflect.Uint8 && bytes.Equal(w.Bytes(), g.Bytes()) {
			return nil // a large []byte: no path built per byte
		}
		fallthrough
	case reflect.Array:
		if w.Len() != g.Len() {
			return &Mismatch{Path: path, Want: fmt.Sprintf("length %d", w.Len()), Got: fmt.Sprintf("length %d", g.Len())}
		}
		for i := range w.Len() {
			if m := d.diff(w.Index(i), g.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1); m != nil {
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
			if m := d.diff(w.MapIndex(k), gv, kp, depth+1); m != nil {
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
		if (wf == gf && (!d.strict || math.Signbit(wf) == math.Signbit(gf))) || (math.IsNaN(wf) && math.IsNaN(gf)) {
			return nil
		}
		return &Mismatch{Path: path, Want: show(w), Got: show(g)}
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		if w.IsNil() && g.IsNil() {
			return nil
		}
		return &Mismatch{Path: path, Want: w.Type().String(), Got: "not comparable"}
	default:
		if !equalScalar(w, g) {
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

// equalScalar compares two values of the same non-composite type through
// their kind's accessor, which, unlike Interface, also works on values read
// from unexported fields.
func equalScalar(w, g reflect.Value) bool {
	switch w.Kind() {
	case reflect.Bool:
		return w.Bool() == g.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return w.Int() == g.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return w.Uint() == g.Uint()
	case reflect.Complex64, reflect.Complex128:
		return w.Complex() == g.Complex()
	case reflect.String:
		return w.String() == g.String()
	}
	if !w.CanInterface() || !g.CanInterface() {
		// An unexported field that is not addressable (inside a map
		// value): compare what fmt prints, which reads it anyway.
		return fmt.Sprint(w) == fmt.Sprint(g)
	}
	return w.Interface() == g.Interface()
}

// sameZone reports whether a and b have locations of the same name and the
// same offset from UTC at their instant.
func sameZone(a, b time.Time) bool {
	_, ao := a.Zone()
	_, bo := b.Zone()
	return ao == bo && a.Location().String() == b.Location().String()
}

func showZoned(t time.Time) string {
	return fmt.Sprintf("%s %q", t.Format(time.RFC3339Nano), t.Location().String())
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
