package export

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

type Kind string

type Inner struct {
	At   time.Time         `json:"at"`
	Tags map[string][]Kind `json:"tags,omitempty" msgpack:"t"`
}

type Outer struct {
	Inner
	Ptr  *Inner    `json:"ptr"`
	Any  any       `json:"any"`
	Grid [2][]int8 `json:"grid"`
}

type withMethod struct{ A int }

func (withMethod) MarshalJSON() ([]byte, error) { return []byte("1"), nil }

func TestTypeWriter(t *testing.T) {
	w := newTypeWriter()
	name, err := w.expr(reflectTypeOf[Outer]())
	if err != nil || name != "Outer" {
		t.Fatalf("expr = %q, %v", name, err)
	}
	src := w.source()
	for _, want := range []string{
		"type Kind string",
		"type Inner struct {\n\tAt time.Time `json:\"at\"`\n\tTags map[string][]Kind `json:\"tags,omitempty\" msgpack:\"t\"`\n}",
		"type Outer struct {\n\tInner\n\tPtr *Inner `json:\"ptr\"`\n\tAny any `json:\"any\"`\n\tGrid [2][]int8 `json:\"grid\"`\n}",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("source lacks %q:\n%s", want, src)
		}
	}
	if !w.imports["time"] {
		t.Error("time not imported")
	}
	if _, err := newTypeWriter().expr(reflectTypeOf[withMethod]()); err == nil || !strings.Contains(err.Error(), "has methods") {
		t.Errorf("type with MarshalJSON: %v, want a 'has methods' error", err)
	}
}

func reflectTypeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }
