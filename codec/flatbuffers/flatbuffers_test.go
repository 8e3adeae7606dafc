package flatbuffers_test

import (
	"errors"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/flatbuffers"
	"github.com/serbench/serbench/scenario"
)

var codecs = []codec.Codec{flatbuffers.New(), flatbuffers.NewLazy()}

func TestBindUnsupported(t *testing.T) {
	for _, c := range codecs {
		var v any
		_, err := c.Bind(&v)
		if !errors.Is(err, codec.ErrUnsupported) {
			t.Errorf("%s: Bind(*any) = %v, want an error wrapping ErrUnsupported", c.Info().ID, err)
		}
	}
}

// TestUnmarshalMalformed checks that truncated and corrupted buffers give an
// error, never a panic.
func TestUnmarshalMalformed(t *testing.T) {
	for _, c := range codecs {
		for _, s := range scenario.Seeds() {
			b, data := flatbuffers.Encode(t, c, s.Value())
			cases := map[string][]byte{
				"empty":      nil,
				"truncated":  data[:len(data)/2],
				"root-far":   append([]byte{0xff, 0xff, 0xff, 0x7f}, data[4:]...),
				"vtable-far": corrupt(data, 4, 0x7f),
			}
			for name, in := range cases {
				t.Run(c.Info().ID+"/"+s.ID+"/"+name, func(t *testing.T) {
					defer func() {
						if p := recover(); p != nil {
							t.Fatalf("panic: %v", p)
						}
					}()
					if out, err := codec.UnmarshalUntrusted(b, in); err == nil {
						// Some corruptions still read as a valid buffer;
						// converting back must not panic either.
						_, _ = b.(codec.Converter).FromNative(out)
					}
				})
			}
		}
	}
}

func corrupt(data []byte, at int, v byte) []byte {
	out := append([]byte(nil), data...)
	for i := at; i < len(out); i += 7 {
		out[i] = v
	}
	return out
}

func TestToNativeTimeOutOfRange(t *testing.T) {
	p := scenario.NewUserProfile()
	p.CreatedAt = time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)
	b, err := flatbuffers.New().Bind(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.(codec.Converter).ToNative(p); err == nil {
		t.Fatal("ToNative accepted a time after 2262, which int64 Unix nanoseconds cannot hold")
	}
}

func TestWrongValueIsAnError(t *testing.T) {
	for _, c := range codecs {
		b, err := c.Bind(scenario.NewWSMessage())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Marshal(scenario.NewWSMessage()); err == nil {
			t.Errorf("%s: Marshal of the scenario value (not ToNative's) succeeded", c.Info().ID)
		}
		if _, err := b.(codec.Converter).ToNative(scenario.NewSSEEvent()); err == nil {
			t.Errorf("%s: ToNative of another scenario type succeeded", c.Info().ID)
		}
		if _, err := b.(codec.Converter).FromNative("x"); err == nil {
			t.Errorf("%s: FromNative of a string succeeded", c.Info().ID)
		}
	}
}

// FuzzUnmarshalLazy checks that both codecs' Unmarshal (the lazy reader,
// which touches every field, and the full unpack, which the expansion
// bound guards against vector lengths beyond the buffer) and unpacking
// what the lazy one accepted never panic.
func FuzzUnmarshalLazy(f *testing.F) {
	var bs []codec.Binding
	for _, s := range scenario.Seeds() {
		for _, c := range codecs {
			b, data := flatbuffers.Encode(f, c, s.Value())
			f.Add(data)
			bs = append(bs, b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, b := range bs {
			if out, err := codec.UnmarshalUntrusted(b, data); err == nil {
				_, _ = b.(codec.Converter).FromNative(out)
			}
		}
	})
}
