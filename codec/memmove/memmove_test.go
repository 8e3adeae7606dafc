package memmove_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/memmove"
	"github.com/serbench/serbench/codec/wire"
	"github.com/serbench/serbench/scenario"
)

func TestCopies(t *testing.T) {
	c := memmove.New()
	if c.Info().Kind != codec.Reference {
		t.Fatalf("Kind %q, want %q", c.Info().Kind, codec.Reference)
	}
	for _, s := range scenario.Seeds() {
		v := s.Value()
		b, err := c.Bind(v)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := wire.Marshal(v)
		got, err := b.Marshal(v)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: Marshal = % x, %v; want the wire encoding", s.ID, got, err)
		}
		out, err := b.Unmarshal(want)
		if p, ok := out.(*[]byte); err != nil || !ok || !bytes.Equal(*p, want) {
			t.Fatalf("%s: Unmarshal = %v, %v; want *[]byte copy of the input", s.ID, out, err)
		}
		if n := testing.AllocsPerRun(20, func() { b.Marshal(v); b.Unmarshal(want) }); n != 0 {
			t.Errorf("%s: %v allocations per Marshal+Unmarshal, want 0", s.ID, n)
		}
		if _, err := b.Marshal(new(int)); err == nil {
			t.Errorf("%s: Marshal(*int): no error", s.ID)
		}
	}
	if _, err := c.Bind(new(int)); !errors.Is(err, codec.ErrUnsupported) {
		t.Errorf("Bind(*int) = %v, want ErrUnsupported", err)
	}
}
