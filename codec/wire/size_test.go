package wire

import (
	"testing"

	"github.com/serbench/serbench/scenario"
)

// TestSizes checks the Size functions against the encoders.
func TestSizes(t *testing.T) {
	for _, s := range scenario.Seeds() {
		v := s.Value()
		b, _ := Marshal(v)
		var n int
		switch p := v.(type) {
		case *scenario.SSEEvent:
			n = SizeSSEEvent(p)
		case *scenario.UserEvent:
			n = SizeUserEvent(p)
		case *scenario.WSMessage:
			n = SizeWSMessage(p)
		case *scenario.Annotation:
			n = SizeAnnotation(p)
		case *scenario.UserProfile:
			n = SizeUserProfile(p)
		}
		if n != len(b) {
			t.Errorf("%s: size %d, encoding has %d bytes", s.ID, n, len(b))
		}
	}
	for _, x := range []uint64{0, 1, 127, 128, 16383, 16384, 1<<63 - 1, 1<<64 - 1} {
		if got, want := SizeUvarint(x), len(AppendUvarint(nil, x)); got != want {
			t.Errorf("SizeUvarint(%d) = %d, want %d", x, got, want)
		}
	}
}

// BenchmarkMarshalStrategy compares the two ways of making Marshal allocate
// once: encode into a stack buffer then copy, or compute the size first.
func BenchmarkMarshalStrategy(b *testing.B) {
	ue, ws, sse := scenario.NewUserEvent(), scenario.NewWSMessage(), scenario.NewSSEEvent()
	var sink []byte
	b.Run("user-event/stack", func(b *testing.B) {
		for b.Loop() {
			var s [largeScratch]byte
			sink = clone(AppendUserEvent(s[:0], ue))
		}
	})
	b.Run("user-event/size", func(b *testing.B) {
		for b.Loop() {
			sink = AppendUserEvent(make([]byte, 0, SizeUserEvent(ue)), ue)
		}
	})
	b.Run("sse-event/stack", func(b *testing.B) {
		for b.Loop() {
			var s [smallScratch]byte
			sink = clone(AppendSSEEvent(s[:0], sse))
		}
	})
	b.Run("sse-event/size", func(b *testing.B) {
		for b.Loop() {
			sink = AppendSSEEvent(make([]byte, 0, SizeSSEEvent(sse)), sse)
		}
	})
	b.Run("ws-message/stack", func(b *testing.B) {
		for b.Loop() {
			var s [smallScratch]byte
			sink = clone(AppendWSMessage(s[:0], ws))
		}
	})
	b.Run("ws-message/size", func(b *testing.B) {
		for b.Loop() {
			sink = AppendWSMessage(make([]byte, 0, SizeWSMessage(ws)), ws)
		}
	})
	_ = sink
}
