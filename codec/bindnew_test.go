package codec_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
)

type point struct{ X, Y int }

func TestBindNew(t *testing.T) {
	funcs := codec.Funcs{Meta: codec.Info{ID: "test/json"}, Marshal: json.Marshal, Unmarshal: json.Unmarshal}
	refusing := codec.Refusing{Codec: funcs, Refuse: func(reflect.Type) string { return "" }}
	for _, c := range []codec.Codec{funcs, refusing} {
		calls := 0
		newValue := func() any { calls++; return new(point) }
		b, err := codec.BindNew(c, &point{1, 2}, newValue)
		if err != nil {
			t.Fatalf("%T: BindNew: %v", c, err)
		}
		calls = 0 // BindNew checks the constructor's type with one call
		for range 3 {
			got, err := b.Unmarshal([]byte(`{"X":3,"Y":4}`))
			if err != nil {
				t.Fatalf("%T: Unmarshal: %v", c, err)
			}
			if p, ok := got.(*point); !ok || *p != (point{3, 4}) {
				t.Fatalf("%T: Unmarshal = %#v, want &point{3, 4}", c, got)
			}
		}
		if calls != 3 {
			t.Errorf("%T: the constructor was called %d times for 3 Unmarshals, want 3", c, calls)
		}
	}
}

func TestBindNewWrongType(t *testing.T) {
	funcs := codec.Funcs{Meta: codec.Info{ID: "test/json"}, Marshal: json.Marshal, Unmarshal: json.Unmarshal}
	_, err := codec.BindNew(funcs, &point{}, func() any { return new(int) })
	if err == nil || !strings.Contains(err.Error(), "*int") || !strings.Contains(err.Error(), "point") {
		t.Fatalf("BindNew with a constructor of *int for a *point: %v, want an error naming both types", err)
	}
}

func TestBindNewWithoutConstructor(t *testing.T) {
	funcs := codec.Funcs{Meta: codec.Info{ID: "test/json"}, Marshal: json.Marshal, Unmarshal: json.Unmarshal}
	b, err := codec.BindNew(funcs, &point{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := b.Unmarshal([]byte(`{"X":1}`))
	second, _ := b.Unmarshal([]byte(`{"X":2}`))
	if first.(*point) == second.(*point) || first.(*point).X != 1 {
		t.Errorf("reflect.New fallback: values %v and %v, want two new values", first, second)
	}
}
