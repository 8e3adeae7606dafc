package wire

import (
	"time"
	"unsafe"
)

// reuseState is what a "wire/reuse" Binding keeps between Unmarshal calls so
// that decoding a message like the previous one allocates nothing:
//
//   - buf, one private copy of the last message, which every decoded string
//     views (unsafe.String). Each Unmarshal overwrites it in place, so the
//     strings of the previous value change under it: that is the
//     codec.Info.ReusesOutput contract, and why a caller must copy or finish
//     with a value before the next Unmarshal. buf grows (a new array; the old
//     one lives on only while old strings refer to it) when a message is
//     larger than any before.
//   - maps, the spare inner maps of a map[string]map[string]string, taken from
//     the previous value and refilled, cleared, for the new one.
//   - zone, the last non-UTC zone decoded, reused while the offset repeats
//     (time.FixedZone allocates).
//
// The decoded value's own slices and maps are kept in the value the Binding
// owns: a slice is resliced when its capacity suffices, a map cleared and
// refilled. A collection encoded as nil sets the field to nil and its
// storage is dropped.
type reuseState struct {
	buf     []byte
	maps    []map[string]string
	zone    *time.Location
	zoneOff int64
}

// decoder copies data into s.buf and returns a Decoder over that copy whose
// strings view it.
func (s *reuseState) decoder(data []byte, m DecMode) Decoder {
	s.buf = append(s.buf[:0], data...)
	d := Decoder{data: s.buf, mode: m.resolved(), depth: 1, rs: s}
	d.str = unsafe.String(unsafe.SliceData(s.buf), len(s.buf))
	return d
}
