package dedis

import (
	"math"
	"testing"

	"go.dedis.ch/protobuf"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/codectest"
)

type (
	int64s    struct{ V int64 }
	anyField  struct{ V any }
	int16s    struct{ V []int16 }
	uints     struct{ V uint }
	byteField struct{ V uint8 }
	array     struct{ V [2]int32 }
	nested    struct{ V [][]int32 }
	mapSlices struct{ M map[string][]int32 }
	// taken holds the types next to the refused ones that the library
	// does carry.
	taken struct {
		B  []byte
		A  [4]byte
		BB [][]byte
		M  map[string][]byte
		I  int
	}
)

// TestZigzagBeyond2p62 pins the library's decoding of int64 values of
// magnitude 2^62 or more, which docs/fidelity.md reports:
// the encoder writes the zigzag form correctly, but the decoder shifts it
// back arithmetically, so these values come back wrong without an error.
func TestZigzagBeyond2p62(t *testing.T) {
	c := New()
	for _, tc := range []struct{ in, out int64 }{
		{1<<62 - 1, 1<<62 - 1},
		{-1 << 62, -1 << 62},
		{1 << 62, -1 << 62},
		{math.MaxInt64, -1},
		{-1<<62 - 1, 1<<62 - 1},
		{math.MinInt64, 0},
	} {
		got, err := codec.RoundTrip(c, &int64s{tc.in})
		if err != nil {
			t.Fatal(err)
		}
		if v := got.(*int64s).V; v != tc.out {
			t.Errorf("%d came back as %d, want (the library's known result) %d", tc.in, v, tc.out)
		}
	}
}

func TestRefused(t *testing.T) {
	lib := codectest.LibRoundTrip(protobuf.Encode, protobuf.Decode)
	codectest.CheckRefusals(t, New(), []codectest.Refusal{
		{Name: "not-a-struct", Sample: new([]int32), Reason: "is not a pointer to a struct", Lib: lib},
		{Name: "interface", Sample: &anyField{V: int64(1)}, Reason: "holds interface values", Lib: lib},
		{Name: "int16", Sample: &int16s{[]int16{1}}, Reason: "a int16, which the library does not encode", Lib: lib},
		{Name: "uint", Sample: &uints{1}, Reason: "a uint, which the library does not encode", Lib: lib},
		{Name: "uint8", Sample: &byteField{1}, Reason: "a uint8 field dedis.byteField.V", Lib: lib},
		{Name: "array", Sample: &array{[2]int32{1, 2}}, Reason: "an array [2]int32", Lib: lib},
		{Name: "nested-slice", Sample: &nested{[][]int32{{1}}}, Reason: "a nested slice [][]int32", Lib: lib},
		{Name: "map-of-slices", Sample: &mapSlices{map[string][]int32{"a": {1}}}, Reason: "a map of slices map[string][]int32", Lib: lib},
	})
	want := &taken{B: []byte{1}, A: [4]byte{1, 2, 3, 4}, BB: [][]byte{{1}, {2}}, M: map[string][]byte{"a": {1}}, I: -7}
	if _, err := codec.RoundTrip(New(), want); err != nil {
		t.Errorf("%T: %v", want, err)
	}
}
