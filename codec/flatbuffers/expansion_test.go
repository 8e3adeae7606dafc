package flatbuffers_test

import (
	"errors"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/serbench/serbench/codec"
	fbcodec "github.com/serbench/serbench/codec/flatbuffers"
	"github.com/serbench/serbench/codec/flatbuffers/fb"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/scenario"
)

// dagUserEvent builds a spec-valid user-event FlatBuffer whose attributes
// vector holds fanout offsets to one StringMapEntry, whose value vector
// holds fanout offsets to one empty StringEntry: fanout^2 entries once
// read, from 8*fanout bytes of offsets.
func dagUserEvent(fanout int) []byte {
	b := flatbuffers.NewBuilder(16 * fanout)
	empty := b.CreateString("")
	fb.StringEntryStart(b)
	fb.StringEntryAddKey(b, empty)
	entry := fb.StringEntryEnd(b)
	repeat := func(off flatbuffers.UOffsetT) flatbuffers.UOffsetT {
		b.StartVector(4, fanout, 4)
		for range fanout {
			b.PrependUOffsetT(off)
		}
		return b.EndVector(fanout)
	}
	values := repeat(entry)
	fb.StringMapEntryStart(b)
	fb.StringMapEntryAddValue(b, values)
	attrs := repeat(fb.StringMapEntryEnd(b))
	fb.UserEventStart(b)
	fb.UserEventAddAttributes(b, attrs)
	b.Finish(fb.UserEventEnd(b))
	return b.FinishedBytes()
}

// TestExpansionBound checks that both codecs refuse a shared-offset buffer
// with an *ExpansionError, and accept the same shape at a fan-out whose
// unshared encoding would be no smaller.
func TestExpansionBound(t *testing.T) {
	for _, c := range codecs {
		b, err := c.Bind(scenario.NewUserEvent())
		if err != nil {
			t.Fatal(err)
		}
		t.Run(c.Info().ID, func(t *testing.T) {
			data := dagUserEvent(20000) // 4x10^8 entries: the input
			_, err := codec.UnmarshalUntrusted(b, data)
			var ee *fbcodec.ExpansionError
			if !errors.As(err, &ee) || !errors.Is(err, fbcodec.ErrExpansion) {
				t.Fatalf("Unmarshal of a %d-byte DAG = %v, want an *ExpansionError", len(data), err)
			}
			if ee.InputBytes != len(data) || ee.Limit != fbcodec.MaxExpansion*int64(len(data))+fbcodec.ExpansionSlack || ee.Charged <= ee.Limit || ee.Codec != c.Info().ID {
				t.Errorf("error fields %+v for a %d-byte input", ee, len(data))
			}
			// Fan-out 2: 4 entries from 2+2 offsets, within the bound.
			out, err := codec.UnmarshalUntrusted(b, dagUserEvent(2))
			if err != nil {
				t.Fatalf("Unmarshal of a fan-out 2 buffer: %v", err)
			}
			v, err := b.(codec.Converter).FromNative(out)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.(*scenario.UserEvent).Attributes; len(got) != 1 {
				// Two attributes with the same (empty) key: one map entry.
				t.Errorf("fan-out 2 read as %d attributes, want 1 (one key)", len(got))
			}
		})
	}
}

// TestHostileDAG checks serbench hostile's "dag/N" input on user-event: at
// fan-out 3 it reads as the shape it claims (every vector of offsets three
// references to its first element), at the default fan-out both codecs
// refuse it with an *ExpansionError.
func TestHostileDAG(t *testing.T) {
	_, valid := fbcodec.Encode(t, fbcodec.NewLazy(), scenario.NewUserEvent())
	small := hostile.Amplifications(hostile.FormatFlatBuffers, valid, 3)
	if len(small) != 1 || small[0].Name != "dag/3" {
		t.Fatalf("Amplifications = %v, want one dag/3", small)
	}
	r := fb.GetRootAsUserEvent(small[0].Data, 0)
	var attr fb.StringMapEntry
	if r.TagsLength() != 3 || r.ItemsLength() != 3 || r.AttributesLength() != 3 || !r.Attributes(&attr, 2) || attr.ValueLength() != 3 {
		t.Fatalf("dag/3 reads as %d tags, %d items, %d attributes (last with %d values); want 3 of each",
			r.TagsLength(), r.ItemsLength(), r.AttributesLength(), attr.ValueLength())
	}
	if string(r.Tags(2)) != string(r.Tags(0)) {
		t.Errorf("tag 2 = %q, want tag 0's %q", r.Tags(2), r.Tags(0))
	}
	big := hostile.Amplifications(hostile.FormatFlatBuffers, valid, hostile.DefaultFanout)
	for _, c := range codecs {
		b, _ := fbcodec.Encode(t, c, scenario.NewUserEvent())
		if _, err := codec.UnmarshalUntrusted(b, big[0].Data); !errors.Is(err, fbcodec.ErrExpansion) {
			t.Errorf("%s: UnmarshalUntrusted(%s, %d bytes) = %v, want ErrExpansion", c.Info().ID, big[0].Name, len(big[0].Data), err)
		}
	}
}
