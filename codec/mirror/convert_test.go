package mirror_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/mirror"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/scenario"
)

// onMirror is a codec on the mirror types, as easyjson, ffjson and msgp
// are, that only converts.
var onMirror = codec.Converting[any]{Meta: codec.Info{ID: "x"}, Convs: mirror.Convs, Missing: mirror.Missing}

func TestBindUnsupported(t *testing.T) {
	var v any
	if _, err := onMirror.Bind(&v); !errors.Is(err, codec.ErrUnsupported) {
		t.Fatalf("Bind(*any) = %v, want an error wrapping ErrUnsupported", err)
	}
}

// TestConvertRoundTrip checks that ToNative then FromNative gives back every
// seed value, and that wrong inputs are errors.
func TestConvertRoundTrip(t *testing.T) {
	for _, s := range scenario.Seeds() {
		t.Run(s.ID, func(t *testing.T) {
			bound, err := onMirror.Bind(s.Value())
			if err != nil {
				t.Fatal(err)
			}
			b, ok := bound.(interface {
				codec.Converter
				New() any
			})
			if !ok {
				t.Fatalf("binding %T is not a Converter with New", bound)
			}
			m, err := b.ToNative(s.Value())
			if err != nil {
				t.Fatal(err)
			}
			back, err := b.FromNative(m)
			if err != nil {
				t.Fatal(err)
			}
			if err := fidelity.Diff(s.Value(), back); err != nil {
				t.Fatal(err)
			}
			if _, err := b.ToNative(m); err == nil {
				t.Error("ToNative accepted a mirror value")
			}
			if _, err := b.FromNative(s.Value()); err == nil {
				t.Error("FromNative accepted a scenario value")
			}
			if _, err := b.FromNative(b.New()); err != nil {
				t.Errorf("FromNative(New()) = %v", err)
			}
		})
	}
}

// TestScenarioTypesHaveNoJSONMethods guards the reason this package exists:
// a MarshalJSON or UnmarshalJSON generated onto a scenario type would be
// called by encoding/json and every library compatible with it.
func TestScenarioTypesHaveNoJSONMethods(t *testing.T) {
	for _, s := range scenario.Seeds() {
		v := s.Value()
		if _, ok := v.(json.Marshaler); ok {
			t.Errorf("%s: %T has a MarshalJSON method", s.ID, v)
		}
		if _, ok := v.(json.Unmarshaler); ok {
			t.Errorf("%s: %T has an UnmarshalJSON method", s.ID, v)
		}
	}
}
