package codec

import "reflect"

// Recursive reports whether t is, or holds, a recursive type: one whose
// values can hold values of the same type (a tree node with a slice of
// child nodes, say), through pointers, slices, arrays, maps and exported
// (or embedded) struct fields. Interfaces are not followed. Codecs that build their encoder for
// a type by recursing into its element types without remembering the types
// under construction (and so overflow the stack on such a type, which no
// recover catches) use it to refuse the type in Bind.
func Recursive(t reflect.Type) bool {
	return cyclic(t, map[reflect.Type]uint8{})
}

// cyclic is a depth-first search for a type met again on the path that
// led to it: state 1 is on the path, 2 is done and acyclic.
func cyclic(t reflect.Type, state map[reflect.Type]uint8) bool {
	switch state[t] {
	case 1:
		return true
	case 2:
		return false
	}
	state[t] = 1
	for _, e := range elems(t) {
		if cyclic(e, state) {
			return true
		}
	}
	state[t] = 2
	return false
}

// HoldsKind reports whether t is, or holds through pointers, slices,
// arrays, maps and exported (or embedded) struct fields, a type of kind k (reflect.Interface for
// any and error, say). Codecs use it to refuse in Bind a type whose values
// they cannot carry: interfaces in a format without type tags, pointer
// fields for a decoder that cannot fill them.
func HoldsKind(t reflect.Type, k reflect.Kind) bool {
	return Holds(t, func(t reflect.Type) bool { return t.Kind() == k })
}

// Holds reports whether t is, or holds as HoldsKind walks it, a type for
// which match is true (a map with keys that are not strings, say).
func Holds(t reflect.Type, match func(reflect.Type) bool) bool {
	return holds(t, match, map[reflect.Type]bool{})
}

func holds(t reflect.Type, match func(reflect.Type) bool, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if match(t) {
		return true
	}
	for _, e := range elems(t) {
		if holds(e, match, seen) {
			return true
		}
	}
	return false
}

// elems returns the types t's values hold directly, leaving out
// unexported struct fields, which codecs do not see (time.Time's
// *time.Location, say).
func elems(t reflect.Type) []reflect.Type {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return []reflect.Type{t.Elem()}
	case reflect.Map:
		return []reflect.Type{t.Key(), t.Elem()}
	case reflect.Struct:
		var out []reflect.Type
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() || f.Anonymous {
				out = append(out, f.Type)
			}
		}
		return out
	}
	return nil
}
