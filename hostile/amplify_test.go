package hostile_test

import (
	"encoding/binary"
	"testing"

	"github.com/serbench/serbench/hostile"
)

// TestAmplificationsShapes checks the inputs Amplifications makes from
// hand-built messages (the codecs' own tests decode them: codec/flatbuffers
// and codec/capnp), and that it makes none where it has nothing to
// amplify.
func TestAmplificationsShapes(t *testing.T) {
	// The parts of a FlatBuffer the generator reads: a root offset naming a
	// table at 4 whose field names a vector at 12 of one offset, to the
	// string at 20.
	le := binary.LittleEndian
	fbuf := make([]byte, 32)
	le.PutUint32(fbuf[0:], 4)  // root: the "table" at 4
	le.PutUint32(fbuf[4:], 8)  // its field: the vector at 12
	le.PutUint32(fbuf[12:], 1) // vector length 1
	le.PutUint32(fbuf[16:], 4) // element 0: the string at 20
	le.PutUint32(fbuf[20:], 3) // "abc"
	copy(fbuf[24:], "abc")
	in := hostile.Amplifications(hostile.FormatFlatBuffers, fbuf, 5)
	if len(in) != 1 || in[0].Name != "dag/5" {
		t.Fatalf("FlatBuffers: %v, want one dag/5", in)
	}
	d := in[0].Data
	vec := 4 + int(le.Uint32(d[4:]))
	if vec != 32 || le.Uint32(d[vec:]) != 5 {
		t.Fatalf("the field names %d (length %d), want the copy at 32 with 5 elements", vec, le.Uint32(d[vec:]))
	}
	for k := range 5 {
		e := vec + 4 + 4*k
		if got := uint32(e) + le.Uint32(d[e:]); got != 20 {
			t.Errorf("element %d names %d, want the string at 20", k, got)
		}
	}
	// Cap'n Proto: a root struct of no data and one pointer, to a list of
	// one pointer, to a one-byte list.
	seg := []uint64{
		0 | 1<<48,                // root: struct at word 1, 0 data words, 1 pointer
		1 | 0<<2 | 6<<32 | 1<<35, // word 1: list at word 2, pointers, 1 element
		1 | 0<<2 | 2<<32 | 1<<35, // word 2: list at word 3, bytes, 1 element
		'x',
	}
	msg := le.AppendUint32(le.AppendUint32(nil, 0), uint32(len(seg)))
	for _, w := range seg {
		msg = le.AppendUint64(msg, w)
	}
	names := map[string][]byte{}
	for _, in := range hostile.Amplifications(hostile.FormatCapnp, msg, 4) {
		names[in.Name] = in.Data
	}
	if len(names) != 2 || names["dag/4"] == nil || names["far/double"] == nil {
		t.Fatalf("Cap'n Proto: %d inputs %v, want dag/4 and far/double", len(names), names)
	}
	if got := le.Uint32(names["far/double"]); got != 1 {
		t.Errorf("far/double has %d+1 segments, want 2", got)
	}
	for _, tc := range []struct {
		format string
		data   []byte
	}{
		{hostile.FormatJSON, []byte(`[1]`)},
		{hostile.FormatFlatBuffers, make([]byte, 16)},
		{hostile.FormatCapnp, []byte{1, 0, 0, 0}},
		{hostile.FormatCapnp, make([]byte, 16)}, // a null root
	} {
		if in := hostile.Amplifications(tc.format, tc.data, 4); len(in) != 0 {
			t.Errorf("%s % x: %d inputs, want none", tc.format, tc.data, len(in))
		}
	}
}
