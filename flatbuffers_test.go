package serbench

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/derive"
)

// stamped stands for a user's type; its conversion functions are written
// with the runtime's table API, as the generated ones use it through flatc's code.
type stamped struct{ At time.Time }

func stampedMarshal(b *flatbuffers.Builder, v *stamped) []byte {
	b.Reset()
	b.StartObject(1)
	b.PrependInt64Slot(0, v.At.UnixNano(), 0)
	b.Finish(b.EndObject())
	return b.FinishedBytes()
}

func stampedUnmarshal(data []byte, v *stamped) error {
	t := flatbuffers.Table{Bytes: data, Pos: flatbuffers.GetUOffsetT(data)}
	if o := flatbuffers.UOffsetT(t.Offset(4)); o != 0 {
		v.At = time.Unix(0, t.GetInt64(o+t.Pos)).UTC()
	}
	return nil
}

// FlatBuffersDerived round-trips through its functions, copies the bytes
// out of the Builder, refuses other types, turns malformed input into an
// error, and explains its losses from the derived schema.
func TestFlatBuffersDerived(t *testing.T) {
	s, err := derive.DeriveFlatBuffers(reflect.TypeFor[stamped]())
	if err != nil {
		t.Fatal(err)
	}
	// Code generated from another schema (a field added since) is refused
	// with both digests and what to run.
	_, err = FlatBuffersDerived(stampedMarshal, stampedUnmarshal, "sha256:00").Bind(&stamped{})
	if !errors.Is(err, codec.ErrUnsupported) || !strings.Contains(err.Error(), "sha256:00, now "+s.Digest()) || !strings.Contains(err.Error(), "go generate") {
		t.Errorf("Bind with a stale digest: %v", err)
	}
	c := FlatBuffersDerived(stampedMarshal, stampedUnmarshal, s.Digest())
	if i := c.Info(); i.ID != "flatbuffers" || i.Kind != codec.Codegen || i.Format != "FlatBuffers" {
		t.Errorf("Info = %+v", i)
	}
	if _, err := c.Bind(new(int)); !errors.Is(err, codec.ErrUnsupported) {
		t.Errorf("Bind(*int): %v, want ErrUnsupported", err)
	}
	b, err := c.Bind(&stamped{})
	if err != nil {
		t.Fatal(err)
	}
	in := &stamped{At: time.Date(2026, 11, 23, 9, 30, 0, 17, time.UTC)}
	first, err := b.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Marshal(&stamped{}); err != nil { // reuses the Builder
		t.Fatal(err)
	}
	out, err := b.Unmarshal(first)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.(*stamped); !got.At.Equal(in.At) {
		t.Errorf("round trip: %v, want %v", got.At, in.At)
	}
	for _, bad := range [][]byte{{1, 2}, {0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0}} {
		if _, err := b.Unmarshal(bad); err == nil || !strings.HasPrefix(err.Error(), "flatbuffers: ") {
			t.Errorf("Unmarshal(%x): %v, want a flatbuffers error", bad, err)
		}
	}
	le := c.(lossExplainer)
	if l, ok := le.LossAt(in, ".At"); !ok || l.Type != "Timestamp" || len(le.Losses(in)) != 1 {
		t.Errorf("LossAt(.At) = %v, %v; Losses = %v", l, ok, le.Losses(in))
	}
}

// noted has a field no schema takes; its conversion functions leave it
// out, as serbench init -skip Note generates them.
type noted struct {
	At   time.Time
	Note any
}

func notedMarshal(b *flatbuffers.Builder, v *noted) []byte {
	return stampedMarshal(b, &stamped{At: v.At})
}

func notedUnmarshal(data []byte, v *noted) error {
	var s stamped
	err := stampedUnmarshal(data, &s)
	v.At = s.At
	return err
}

// Options.Skip reaches a codec generated from a derived schema: its round
// trip is compared without the field, which is listed as a loss.
func TestFlatBuffersDerivedSkip(t *testing.T) {
	in := &noted{At: time.Date(2026, 11, 23, 9, 30, 0, 17, time.UTC), Note: "kept by JSON only"}
	s, err := derive.Options{Skip: []string{"Note"}}.DeriveFlatBuffers(reflect.TypeFor[noted]())
	if err != nil {
		t.Fatal(err)
	}
	extra := []codec.Codec{FlatBuffersDerived(notedMarshal, notedUnmarshal, s.Digest())}
	// Without the Skip the code was generated with, no schema can be
	// derived for the type: n/a, naming the field.
	f, err := Options{Codecs: []string{}, Extra: extra}.Fidelity(in)
	if err != nil {
		t.Fatal(err)
	}
	if f[0].Status != NA || f[0].Err == nil || !strings.Contains(f[0].Err.Error(), ".Note") {
		t.Errorf("without Skip: %s %v; want n/a naming .Note", f[0].Status, f[0].Err)
	}
	f, err = Options{Codecs: []string{}, Extra: extra, Skip: []string{"Note"}}.Fidelity(in)
	if err != nil {
		t.Fatal(err)
	}
	if f[0].Status != OK || len(f[0].Losses) != 2 || f[0].Losses[0].Path != ".Note" || f[0].Losses[0].Type != "(left out)" {
		t.Errorf("with Skip: %s %v, losses %v; want ok with .Note left out", f[0].Status, f[0].Err, f[0].Losses)
	}
}
