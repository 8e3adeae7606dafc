package protobuf_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/gogoproto"
	"github.com/serbench/serbench/codec/protobuf"
	"github.com/serbench/serbench/codec/vtprotobuf"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/scenario"
)

// codecs are the three Protocol Buffers codecs, which share one schema and
// so one wire encoding.
var codecs = []codec.Codec{protobuf.New(), vtprotobuf.New(), gogoproto.New()}

func bind(t testing.TB, c codec.Codec, v any) (codec.Binding, codec.Converter) {
	t.Helper()
	b, err := c.Bind(v)
	if err != nil {
		t.Fatal(err)
	}
	conv, ok := b.(codec.Converter)
	if !ok {
		t.Fatalf("%s: binding %T is not a codec.Converter", c.Info().ID, b)
	}
	return b, conv
}

func encode(t testing.TB, c codec.Codec, v any) []byte {
	t.Helper()
	b, conv := bind(t, c, v)
	m, err := conv.ToNative(v)
	if err != nil {
		t.Fatal(err)
	}
	data, err := b.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestInterop checks that each codec decodes what each other one encodes:
// they implement one schema, so their bytes must be interchangeable.
func TestInterop(t *testing.T) {
	for _, s := range scenario.Seeds() {
		for _, enc := range codecs {
			for _, dec := range codecs {
				t.Run(fmt.Sprintf("%s/%s->%s", s.ID, enc.Info().ID, dec.Info().ID), func(t *testing.T) {
					want := s.Value()
					data := encode(t, enc, want)
					b, conv := bind(t, dec, want)
					m, err := b.Unmarshal(data)
					if err != nil {
						t.Fatal(err)
					}
					got, err := conv.FromNative(m)
					if err != nil {
						t.Fatal(err)
					}
					if err := fidelity.Diff(want, got); err != nil {
						t.Fatal(err)
					}
				})
			}
		}
	}
}

// TestSameSize checks that the three codecs encode every seed into the same
// number of bytes (map order may differ, size may not).
func TestSameSize(t *testing.T) {
	for _, s := range scenario.Seeds() {
		want := len(encode(t, codecs[0], s.Value()))
		for _, c := range codecs[1:] {
			if got := len(encode(t, c, s.Value())); got != want {
				t.Errorf("%s: %s encodes %d bytes, %s %d", s.ID, c.Info().ID, got, codecs[0].Info().ID, want)
			}
		}
	}
}

func TestUnsupported(t *testing.T) {
	for _, c := range codecs {
		for _, sample := range []any{new(any), new(map[string]any), &struct{ A int }{}} {
			_, err := c.Bind(sample)
			if !errors.Is(err, codec.ErrUnsupported) {
				t.Errorf("%s: Bind(%T) = %v, want an error wrapping ErrUnsupported", c.Info().ID, sample, err)
			}
		}
	}
}

// TestWrongValues checks that values of the wrong type are errors that
// name the type, not panics.
func TestWrongValues(t *testing.T) {
	for _, c := range codecs {
		b, conv := bind(t, c, scenario.NewWSMessage())
		other := scenario.NewSSEEvent()
		if _, err := conv.ToNative(other); err == nil || !strings.Contains(err.Error(), "*scenario.SSEEvent") {
			t.Errorf("%s: ToNative(%T) = %v", c.Info().ID, other, err)
		}
		if _, err := conv.ToNative((*scenario.WSMessage)(nil)); err == nil {
			t.Errorf("%s: ToNative(nil) gave no error", c.Info().ID)
		}
		if _, err := conv.FromNative(other); err == nil {
			t.Errorf("%s: FromNative(%T) gave no error", c.Info().ID, other)
		}
		if _, err := b.Marshal(other); err == nil || !strings.Contains(err.Error(), c.Info().ID+": ") {
			t.Errorf("%s: Marshal(%T) = %v, want an error with the codec's prefix", c.Info().ID, other, err)
		}
	}
}

// TestBadInput checks that malformed bytes give an error, not a panic.
func TestBadInput(t *testing.T) {
	inputs := map[string][]byte{
		"truncated varint":       {0x18, 0xff},
		"length past end":        {0x0a, 0x7f, 'a'},
		"wire type 7":            {0x0f},
		"field number 0":         {0x00, 0x01},
		"nested length past end": {0x12, 0x05, 0x0a, 0x10},
		"unterminated group (4)": {0x0c},
	}
	for _, c := range codecs {
		for _, s := range scenario.Seeds() {
			b, _ := bind(t, c, s.Value())
			for name, data := range inputs {
				if _, err := b.Unmarshal(data); err == nil {
					t.Errorf("%s/%s: Unmarshal(%s % x) gave no error", c.Info().ID, s.ID, name, data)
				}
			}
		}
	}
}

// FuzzUnmarshal feeds arbitrary bytes to every codec's Unmarshal for every
// seed type: each must return a value or an error, never panic, and a value
// one accepts must convert back.
func FuzzUnmarshal(f *testing.F) {
	seeds := scenario.Seeds()
	for i, s := range seeds {
		f.Add(uint8(i), encode(f, codecs[0], s.Value()))
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		s := seeds[int(which)%len(seeds)]
		for _, c := range codecs {
			b, conv := bind(t, c, s.Value())
			m, err := b.Unmarshal(data)
			if err != nil {
				continue
			}
			if _, err := conv.FromNative(m); err != nil {
				t.Errorf("%s: FromNative after a successful Unmarshal: %v", c.Info().ID, err)
			}
		}
	})
}

// Example prints the size of every seed scenario encoded as Protocol Buffers.
// docs/reference.md, "Scenarios" quotes 48 bytes for a published ws-message whose content was
// shorter than this project's.
func Example() {
	for _, s := range scenario.Seeds() {
		v := s.Value()
		b, _ := protobuf.New().Bind(v)
		m, _ := b.(codec.Converter).ToNative(v)
		data, _ := b.Marshal(m)
		fmt.Printf("%s: %d bytes\n", s.ID, len(data))
	}
	// Output:
	// sse-event: 124 bytes
	// user-event: 739 bytes
	// ws-message: 48 bytes
	// annotation: 143 bytes
	// user-profile: 190 bytes
}

// fill sets every field of the value v points to, recursively, to a value
// other than its zero value (distinct per field, derived from n), so that a
// field the schema or a conversion forgets shows up as a difference.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", *n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int32, reflect.Int64:
		v.SetInt(-int64(*n) * 1000003)
	case reflect.Uint64:
		v.SetUint(1<<63 + uint64(*n))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(*n) + 0.25)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2030, 1, 2, 3, 4, 5, *n, time.FixedZone("X", 3600))))
			return
		}
		for i := range v.NumField() {
			fill(v.Field(i), n)
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(s.Index(i), n)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, n)
		fill(e, n)
		m.SetMapIndex(k, e)
		v.Set(m)
	default:
		panic(fmt.Sprintf("fill: no rule for %s", v.Type()))
	}
}

// TestEveryFieldRoundTrips round-trips, through every codec, values of the
// seed types whose every field is set, which the seeds themselves do not
// guarantee (sse-event has Replay false, say).
func TestEveryFieldRoundTrips(t *testing.T) {
	for _, s := range scenario.Seeds() {
		want := reflect.New(reflect.TypeOf(s.Value()).Elem())
		n := 0
		fill(want.Elem(), &n)
		for _, c := range codecs {
			t.Run(s.ID+"/"+c.Info().ID, func(t *testing.T) {
				got, err := codec.RoundTrip(c, want.Interface())
				if err != nil {
					t.Fatal(err)
				}
				if err := fidelity.Diff(want.Interface(), got); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}
