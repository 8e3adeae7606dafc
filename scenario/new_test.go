package scenario

import (
	"reflect"
	"testing"
)

func TestNewMakesValueType(t *testing.T) {
	sweep, err := Sweep([]int64{MinSweepBytes})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append(append(Seeds(), Annot()...), sweep...) {
		if s.New == nil {
			t.Errorf("%s: New is nil", s.ID)
			continue
		}
		got, want := reflect.TypeOf(s.New()), reflect.TypeOf(s.Value())
		if got != want {
			t.Errorf("%s: New makes %v, Value is %v", s.ID, got, want)
		}
		if v := reflect.ValueOf(s.New()); v.IsNil() || !v.Elem().IsZero() {
			t.Errorf("%s: New returned %v, want a pointer to a new zero value", s.ID, v)
		}
	}
}
