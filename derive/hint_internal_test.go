package derive

import (
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"
)

type hintRoundRow struct {
	Unit string  `json:"unit"`
	At   string  `json:"at"`
	N    int64   `json:"n"`
	F    float64 `json:"f"`
}

type hintRound struct {
	Rows  []hintRoundRow          `json:"rows"`
	ByKey map[string]hintRoundRow `json:"by_key"`
	Tags  []string                `json:"tags"`
}

// Each tightened message decodes, on its own descriptor, to an equal
// message: the copy wrote valid protobuf of the tightened schema.
func TestTightenedRoundTrip(t *testing.T) {
	v := &hintRound{ByKey: map[string]hintRoundRow{"k": {Unit: "kg", At: "2026-01-02T03:04:05.5+02:00", N: -3, F: 2}}, Tags: []string{"a", "b", "a", "b"}}
	for i, u := range []string{"kg", "pc", "kg", "pc", "kg"} {
		v.Rows = append(v.Rows, hintRoundRow{Unit: u, At: "2026-11-23T09:30:12Z", N: int64(i * 1000), F: float64(i * 7)})
	}
	hs, err := FindHints(v)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 5 {
		t.Fatalf("%d hints, want unit, at, n, f and tags:\n%s", len(hs), hs)
	}
	for _, h := range hs {
		data, err := proto.Marshal(h.after)
		if err != nil {
			t.Fatal(err)
		}
		back := dynamicpb.NewMessage(h.after.ProtoReflect().Descriptor())
		if err := proto.Unmarshal(data, back); err != nil {
			t.Errorf("%s: %v", h.Path, err)
			continue
		}
		if !proto.Equal(back, h.after) || len(data) != h.After {
			t.Errorf("%s: %d bytes decode to a different message", h.Path, len(data))
		}
	}
}
