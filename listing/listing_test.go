package listing

import (
	"context"
	"testing"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/scenario"
)

func TestNew(t *testing.T) {
	if _, _, err := New(context.Background(), Options{}); err == nil {
		t.Error("New with a nil Registry: no error")
	}
	reg := all.Registry()
	l, warnings, err := New(context.Background(), Options{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings without a corpus: %v", warnings)
	}
	if len(l.Codecs) != len(reg.All()) {
		t.Errorf("%d codecs listed; the registry has %d", len(l.Codecs), len(reg.All()))
	}
	for _, c := range l.Codecs {
		if c.DropIn != nil {
			t.Errorf("%s: drop-in class measured without Measure", c.ID)
		}
	}
	want := len(scenario.Annot())
	if len(l.Scenarios) <= want {
		t.Errorf("%d scenarios listed; want the built-in ones and %d annotation workloads", len(l.Scenarios), want)
	}
	if len(l.Derived) == 0 {
		t.Error("no derived codecs listed")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := New(ctx, Options{Registry: reg}); err != context.Canceled {
		t.Errorf("cancelled context: error %v, want %v", err, context.Canceled)
	}
}
