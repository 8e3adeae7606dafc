package capnp

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/scenario"
)

// TestLazyConvert checks the two values capnp/lazy's FromNative takes: the
// scenario value ToNative returns (passed through, which is what the
// runner's convert loop gives it) and the root struct Unmarshal returns
// (copied into a new scenario value); anything else is an error.
func TestLazyConvert(t *testing.T) {
	v := scenario.NewUserEvent()
	b, err := NewLazy().Bind(v)
	if err != nil {
		t.Fatal(err)
	}
	conv := b.(codec.Converter)
	native, err := conv.ToNative(v)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := conv.FromNative(native); err != nil || back != any(v) {
		t.Fatalf("FromNative(ToNative(v)) = %p, %v; want v itself", back, err)
	}
	data, err := b.Marshal(native)
	if err != nil {
		t.Fatal(err)
	}
	root, err := b.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := conv.FromNative(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := fidelity.Diff(v, got); err != nil {
		t.Fatal(err)
	}
	if _, err := conv.FromNative(scenario.NewWSMessage()); err == nil || !strings.Contains(err.Error(), "FromNative wants") {
		t.Fatalf("FromNative of another type: err = %v, want a FromNative error", err)
	}
}

// TestUnmarshalRejectsShortInput checks that both codecs return an error,
// not a panic or a zero value, for input too short to hold a message.
func TestUnmarshalRejectsShortInput(t *testing.T) {
	for _, c := range []codec.Codec{New(), NewLazy()} {
		b, err := c.Bind(scenario.NewSSEEvent())
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range [][]byte{nil, {0, 0, 0}, {0, 0, 0, 0, 9, 0, 0, 0}} {
			if _, err := b.Unmarshal(in); err == nil || !strings.HasPrefix(err.Error(), c.Info().ID+": ") {
				t.Errorf("%s: Unmarshal(%x) err = %v, want an error prefixed with the codec ID", c.Info().ID, in, err)
			}
		}
	}
}
