package enkodo

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/scenario"
)

// TestRefusesOtherTypes checks that a type without hand-written methods is
// refused with the reason.
func TestRefusesOtherTypes(t *testing.T) {
	_, err := New().Bind(&struct{ A int }{})
	if !errors.Is(err, codec.ErrUnsupported) || !strings.Contains(err.Error(), "no hand-written MarshalEnkodo and UnmarshalEnkodo methods") {
		t.Fatalf("Bind = %v", err)
	}
}

// TestKeepsWhatItSays round-trips values the seeds lack: nil and empty
// slices and maps apart, a time's offset and nanoseconds strictly.
func TestKeepsWhatItSays(t *testing.T) {
	for _, v := range []any{
		&scenario.UserEvent{OccurredAt: time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)},
		&scenario.UserEvent{Tags: []string{}, Items: []scenario.EventItem{}, Attributes: map[string]map[string]string{"a": nil, "b": {}},
			Scores: []float64{}, Flags: []bool{}, OccurredAt: time.Date(-5, 7, 4, 12, 0, 0, 1, time.FixedZone("", 5*3600+1800))},
		&scenario.SSEEvent{Meta: map[string]string{}},
	} {
		got, err := codec.RoundTrip(New(), v)
		if err != nil {
			t.Fatal(err)
		}
		if err := fidelity.DiffStrict(v, got); err != nil {
			t.Errorf("%T: %v", v, err)
		}
	}
}

// TestBadInput checks that trailing bytes and messages cut anywhere are
// errors, never panics.
func TestBadInput(t *testing.T) {
	b, err := New().Bind(scenario.NewUserEvent())
	if err != nil {
		t.Fatal(err)
	}
	native, err := b.(codec.Converter).ToNative(scenario.NewUserEvent())
	if err != nil {
		t.Fatal(err)
	}
	data, err := b.Marshal(native)
	if err != nil {
		t.Fatal(err)
	}
	bad := [][]byte{append(data[:len(data):len(data)], 0), {}, {1}}
	for n := 1; n < len(data); n += 37 {
		bad = append(bad, data[:n])
	}
	ws, err := New().Bind(scenario.NewWSMessage())
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range bad {
		for _, b := range []codec.Binding{b, ws} {
			if _, err := b.Unmarshal(in); err == nil || !strings.HasPrefix(err.Error(), "enkodo: ") {
				t.Errorf("Unmarshal(%x) into %T: err = %v", in, b, err)
			}
		}
	}
}

// TestBoolStrict checks that a bool byte other than 0 and 1 is an error:
// the library alone reads it as false.
func TestBoolStrict(t *testing.T) {
	b, err := New().Bind(scenario.NewSSEEvent())
	if err != nil {
		t.Fatal(err)
	}
	enc := func(replay bool) []byte {
		v := scenario.NewSSEEvent()
		v.Replay = replay
		data, err := b.Marshal((*sseEvent)(v))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	yes, no := enc(true), enc(false)
	for i := range yes {
		if yes[i] != no[i] {
			yes[i] = 2
			break
		}
	}
	if _, err := b.Unmarshal(yes); err == nil || !strings.Contains(err.Error(), "bool byte 2") {
		t.Fatalf("Unmarshal with a bool byte 2: err = %v", err)
	}
}
