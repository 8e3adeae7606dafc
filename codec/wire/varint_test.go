package wire

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// refUvarint reads a varint from data[off:] by the format's rules (doc.go)
// a byte at a time: the value, the bytes read, and the error kind
// (ErrTruncated, ErrVarint) or nil.
func refUvarint(data []byte, off int) (uint64, int, error) {
	var x uint64
	for i := 0; ; i++ {
		if off+i >= len(data) {
			return 0, 0, ErrTruncated
		}
		b := data[off+i]
		if i == 9 && b > 1 {
			return 0, 0, ErrVarint
		}
		if b < 0x80 {
			if b == 0 && i > 0 {
				return 0, 0, ErrVarint
			}
			return x | uint64(b)<<(7*uint(i)), i + 1, nil
		}
		x |= uint64(b&0x7f) << (7 * uint(i))
	}
}

// TestUvarintPaths checks Uvarint's word and byte paths against refUvarint
// at every offset of inputs that hold varints of every length (canonical,
// overlong, overflowing and cut short), with and without eight bytes after
// them.
func TestUvarintPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var inputs [][]byte
	for _, x := range []uint64{0, 1, 127, 128, 300, 1 << 14, 1<<21 - 1, 1 << 35, 1<<56 - 1, 1 << 56, 1 << 62, math.MaxUint64} {
		v := binary.AppendUvarint(nil, x)
		inputs = append(inputs, v, append(v, 1, 2, 3, 4, 5, 6, 7, 8, 9), v[:len(v)-1])
	}
	inputs = append(inputs,
		[]byte{0x80, 0x00}, []byte{0xff, 0x80, 0x00, 9, 9, 9, 9, 9, 9},
		[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02},
		[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	for range 2000 {
		b := make([]byte, rng.IntN(24))
		for i := range b {
			// Mostly continuation bytes, so that long varints are common.
			b[i] = byte(rng.Uint32())
			if rng.IntN(4) != 0 {
				b[i] |= 0x80
			}
		}
		inputs = append(inputs, b)
	}
	for _, in := range inputs {
		for off := 0; off <= len(in); off++ {
			d := Decoder{data: in, off: off}
			got := d.Uvarint()
			want, n, werr := refUvarint(in, off)
			var gerr error
			if d.err != nil {
				gerr = d.err.Err
			}
			if !errors.Is(gerr, werr) || (werr == nil && gerr != nil) {
				t.Fatalf("% x at %d: error %v, want %v", in, off, d.err, werr)
			}
			if werr == nil && (got != want || d.off != off+n) {
				t.Fatalf("% x at %d: %d, next offset %d; want %d, %d", in, off, got, d.off, want, off+n)
			}
		}
	}
}
