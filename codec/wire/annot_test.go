package wire_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/wire"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/scenario"
)

// TestAnnotRoundTrip checks the annotation workloads through Marshal,
// Append and Unmarshal, Marshal's exact sizing, and nil against empty
// columns.
func TestAnnotRoundTrip(t *testing.T) {
	values := []any{
		scenario.NewSparseMatrix(300), scenario.NewBoxList(300), scenario.NewTimeSeries(300),
		&scenario.SparseMatrix{RowIdx: []int32{}, ColIdx: nil, Values: []float32{}},
		&scenario.BoxList{Boxes: []scenario.Box{}}, &scenario.BoxList{},
		&scenario.TimeSeries{Timestamps: []int64{-1 << 63, 1<<63 - 1, 0, -5}, Values: []float64{1, 2, 3, 4}},
		&scenario.SparseMatrix{Rows: -1 << 31, Cols: 1<<31 - 1, RowIdx: []int32{1<<31 - 1, -1 << 31}, ColIdx: []int32{-1 << 31}, Values: nil},
	}
	for _, v := range values {
		data, err := wire.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if cap(data) != len(data) {
			t.Errorf("%T: Marshal sized %d bytes for %d", v, cap(data), len(data))
		}
		app, err := wire.Append([]byte{9}, v)
		if err != nil || !bytes.Equal(app[1:], data) {
			t.Errorf("%T: Append differs from Marshal (%v)", v, err)
		}
		got := newLike(v)
		if err := wire.Unmarshal(data, got); err != nil {
			t.Fatalf("%T: %v", v, err)
		}
		if err := fidelity.Diff(v, got); err != nil {
			t.Errorf("%T: %v", v, err)
		}
		var de *wire.DecodeError
		if err := wire.Unmarshal(data[:len(data)-1], newLike(v)); !errors.As(err, &de) {
			t.Errorf("%T: truncated input: %v, want a *wire.DecodeError", v, err)
		}
	}
}

func newLike(v any) any {
	switch v.(type) {
	case *scenario.SparseMatrix:
		return new(scenario.SparseMatrix)
	case *scenario.BoxList:
		return new(scenario.BoxList)
	}
	return new(scenario.TimeSeries)
}

// TestInt32Overflow checks that a delta that leaves the int32 range is an
// error, not a wrapped index.
func TestInt32Overflow(t *testing.T) {
	data := wire.AppendSparseMatrix(nil, &scenario.SparseMatrix{RowIdx: []int32{1<<31 - 1}})
	// Replace RowIdx by two deltas of 2^31-1: their sum overflows.
	data = data[:3]
	data = wire.AppendHeader(data, 2, false)
	data = wire.AppendVarint(data, 1<<31-1)
	data = wire.AppendVarint(data, 1<<31-1)
	data = wire.AppendHeader(data, 0, true)
	data = wire.AppendHeader(data, 0, true)
	err := wire.Unmarshal(data, new(scenario.SparseMatrix))
	if !errors.Is(err, wire.ErrInvalid) {
		t.Errorf("err = %v, want ErrInvalid", err)
	}
}

// TestSeriesTimestampBytes checks what delta coding saves on annot/series:
// each timestamp, 10 ms ± 1 ms after the previous one, takes a 4-byte
// varint instead of 8 fixed bytes (the first one, 9 bytes).
func TestSeriesTimestampBytes(t *testing.T) {
	s := scenario.NewTimeSeries(10_000)
	delta := wire.AppendInt64sDelta(nil, s.Timestamps)
	fixed := appendInt64sFixed(nil, s.Timestamps)
	if want := 2 + 9 + 4*(len(s.Timestamps)-1); len(delta) != want {
		t.Errorf("delta: %d bytes, want %d", len(delta), want)
	}
	if want := 2 + 8*len(s.Timestamps); len(fixed) != want {
		t.Errorf("fixed: %d bytes, want %d", len(fixed), want)
	}
}

// appendInt64sFixed is the layout delta coding replaces: a slice header,
// then 8 bytes little-endian per element.
func appendInt64sFixed(dst []byte, s []int64) []byte {
	dst = wire.AppendHeader(dst, len(s), s == nil)
	for _, x := range s {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(x))
	}
	return dst
}

// decodeInt64sFixed reads what appendInt64sFixed writes into a new slice.
func decodeInt64sFixed(data []byte) ([]int64, error) {
	d := wire.NewDecoder(data, wire.DecMode{})
	n, _ := d.Header(8)
	if err := d.Err(); err != nil {
		return nil, err
	}
	s := make([]int64, n)
	off := d.Offset()
	for i := range s {
		s[i] = int64(binary.LittleEndian.Uint64(data[off+8*i:]))
	}
	return s, nil
}

func decodeInt64sDelta(data []byte) ([]int64, error) {
	d := wire.NewDecoder(data, wire.DecMode{})
	s := d.Int64sDelta()
	return s, d.Finish()
}

// BenchmarkSeriesTimestamps compares the timestamp column of
// annot/series@medium delta coded (wire's layout) with fixed 8-byte
// integers: bytes per element and ns per element, each way.
func BenchmarkSeriesTimestamps(b *testing.B) {
	ts := scenario.NewTimeSeries(10_000).Timestamps
	layouts := []struct {
		name string
		enc  func([]byte, []int64) []byte
		dec  func([]byte) ([]int64, error)
	}{
		{"delta-varint", wire.AppendInt64sDelta, decodeInt64sDelta},
		{"fixed64", appendInt64sFixed, decodeInt64sFixed},
	}
	for _, l := range layouts {
		data := l.enc(nil, ts)
		b.Run("layout="+l.name+"/op=marshal", func(b *testing.B) {
			buf := make([]byte, 0, len(data))
			b.SetBytes(int64(len(data)))
			b.ReportMetric(float64(len(data))/float64(len(ts)), "B/elem")
			for b.Loop() {
				buf = l.enc(buf[:0], ts)
			}
		})
		b.Run("layout="+l.name+"/op=unmarshal", func(b *testing.B) {
			var out []int64
			var err error
			b.SetBytes(int64(len(data)))
			b.ReportMetric(float64(len(data))/float64(len(ts)), "B/elem")
			for b.Loop() {
				if out, err = l.dec(data); err != nil {
					b.Fatal(err)
				}
			}
			if len(out) != len(ts) || out[len(ts)-1] != ts[len(ts)-1] {
				b.Fatalf("decoded %d timestamps, want %d", len(out), len(ts))
			}
		})
	}
}

// fuzzAnnot is the body of the annotation workloads' fuzz targets: decoding
// never panics and fails with a *DecodeError, or succeeds and re-encodes to
// data exactly (the format is canonical); the wire and wire/reuse
// Bindings agree with Unmarshal, wire/reuse after decoding the seed.
func fuzzAnnot[T any](t *testing.T, data []byte, seed *T, appendT func([]byte, *T) []byte) {
	v := new(T)
	err := wire.Unmarshal(data, v)
	for _, c := range []codec.Codec{wire.New(), wire.NewReuse()} {
		b, berr := c.Bind(seed)
		if berr != nil {
			t.Fatal(berr)
		}
		if _, berr := b.Unmarshal(appendT(nil, seed)); berr != nil {
			t.Fatalf("%s: seed: %v", c.Info().ID, berr)
		}
		got, berr := b.Unmarshal(data)
		if (berr == nil) != (err == nil) || err != nil && berr.Error() != err.Error() {
			t.Fatalf("%s disagrees with Unmarshal: %v vs %v", c.Info().ID, berr, err)
		}
		if err == nil {
			if d := fidelity.Diff(v, got); d != nil {
				t.Fatalf("%s: %v", c.Info().ID, d)
			}
		}
	}
	if err != nil {
		var de *wire.DecodeError
		if !errors.As(err, &de) || de.Offset < 0 || de.Offset > len(data) {
			t.Fatalf("error %v (%T) is not a *wire.DecodeError within the input", err, err)
		}
		return
	}
	if enc := appendT(nil, v); !bytes.Equal(enc, data) {
		t.Fatalf("re-encoding differs:\nin  % x\nout % x", data, enc)
	}
}

func FuzzSparseMatrix(f *testing.F) {
	seed := scenario.NewSparseMatrix(20)
	addAnnotSeeds(f, wire.AppendSparseMatrix(nil, seed))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzAnnot(t, data, seed, wire.AppendSparseMatrix) })
}

func FuzzBoxList(f *testing.F) {
	seed := scenario.NewBoxList(5)
	addAnnotSeeds(f, wire.AppendBoxList(nil, seed))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzAnnot(t, data, seed, wire.AppendBoxList) })
}

func FuzzTimeSeries(f *testing.F) {
	seed := scenario.NewTimeSeries(20)
	addAnnotSeeds(f, wire.AppendTimeSeries(nil, seed))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzAnnot(t, data, seed, wire.AppendTimeSeries) })
}

// addAnnotSeeds adds valid and some damaged copies of it to f.
func addAnnotSeeds(f *testing.F, valid []byte) {
	f.Add(valid)
	f.Add(valid[:len(valid)/2])
	f.Add(valid[:len(valid)-1])
	f.Add(append(append([]byte(nil), valid...), 0))
	f.Add([]byte{wire.Version, 0, 0, 0, 0, 0})
}
