package codec_test

import (
	"reflect"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

type node struct {
	Name string
	Kids []*node
}

type wrapper struct{ Root node }

type viaMap struct{ M map[string][]viaMap }

func TestRecursive(t *testing.T) {
	for _, tt := range []struct {
		t    reflect.Type
		want bool
	}{
		{reflect.TypeFor[node](), true},
		{reflect.TypeFor[*node](), true},
		{reflect.TypeFor[viaMap](), true},
		{reflect.TypeFor[*scenario.UserEvent](), false},
		{reflect.TypeFor[any](), false},
		{reflect.TypeFor[[]int](), false},
		{reflect.TypeFor[*wrapper](), true}, // holds a recursive node
		{reflect.TypeFor[[2]map[string][]int](), false},
	} {
		if got := codec.Recursive(tt.t); got != tt.want {
			t.Errorf("Recursive(%v) = %v, want %v", tt.t, got, tt.want)
		}
	}
}

func TestHoldsKind(t *testing.T) {
	type withErr struct{ E []map[string]error }
	for _, tt := range []struct {
		t    reflect.Type
		want bool
	}{
		{reflect.TypeFor[*any](), true},
		{reflect.TypeFor[withErr](), true},
		{reflect.TypeFor[*node](), false}, // recursive, no interface: the walk ends
		{reflect.TypeFor[*scenario.UserEvent](), false},
	} {
		if got := codec.HoldsKind(tt.t, reflect.Interface); got != tt.want {
			t.Errorf("HoldsKind(%v, Interface) = %v, want %v", tt.t, got, tt.want)
		}
	}
	if codec.HoldsKind(reflect.TypeFor[scenario.UserEvent](), reflect.Pointer) || !codec.HoldsKind(reflect.TypeFor[[]*int](), reflect.Pointer) {
		t.Error("HoldsKind(_, Pointer) wrong on UserEvent or []*int")
	}
	intKeys := func(t reflect.Type) bool { return t.Kind() == reflect.Map && t.Key().Kind() == reflect.Int }
	if !codec.Holds(reflect.TypeFor[*[]map[int]string](), intKeys) || codec.Holds(reflect.TypeFor[*scenario.UserEvent](), intKeys) {
		t.Error("Holds(_, map with int keys) wrong")
	}
}
