package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"time"
)

// Limits on DecOptions, with their defaults.
const (
	// DefaultMaxCollectionLen is the default cap on the elements of one slice
	// or the entries of one map.
	DefaultMaxCollectionLen = 1 << 20
	// MaxMaxCollectionLen is the largest MaxCollectionLen accepted.
	MaxMaxCollectionLen = math.MaxInt32
	// DefaultMaxDepth is the default cap on nesting depth. The top-level value
	// is at depth 1; each nested struct, slice, map and slice element adds 1.
	// The deepest seed value (annotation: message, labels, label, box) is at
	// depth 4.
	DefaultMaxDepth = 32
	// MaxMaxDepth is the largest MaxDepth accepted.
	MaxMaxDepth = 10000
)

// DecOptions configure decoding. The zero value means the defaults.
type DecOptions struct {
	// MaxCollectionLen caps the elements of one slice or entries of one map.
	// 0 means DefaultMaxCollectionLen; the range is [1, MaxMaxCollectionLen].
	// Independently of it, a count is always checked against the bytes that
	// remain.
	MaxCollectionLen int
	// MaxDepth caps nesting depth (see DefaultMaxDepth). 0 means
	// DefaultMaxDepth; the range is [1, MaxMaxDepth].
	MaxDepth int
	// CopyStrings makes one allocation per decoded string. By default all
	// strings of a message share one private copy of the input instead, which
	// is one allocation per message but keeps the whole copy alive as long as
	// any of its strings is.
	CopyStrings bool
}

// DecMode is a validated, immutable set of DecOptions, safe for concurrent
// use. The zero DecMode decodes with the defaults.
type DecMode struct {
	maxLen      int
	maxDepth    int
	copyStrings bool
}

// DecMode validates o and returns the mode it describes. It returns an error
// naming the bad value and the accepted range.
func (o DecOptions) DecMode() (DecMode, error) {
	if o.MaxCollectionLen < 0 || o.MaxCollectionLen > MaxMaxCollectionLen {
		return DecMode{}, fmt.Errorf("wire: invalid MaxCollectionLen %d (range is [1, %d], 0 for the default %d)",
			o.MaxCollectionLen, MaxMaxCollectionLen, DefaultMaxCollectionLen)
	}
	if o.MaxDepth < 0 || o.MaxDepth > MaxMaxDepth {
		return DecMode{}, fmt.Errorf("wire: invalid MaxDepth %d (range is [1, %d], 0 for the default %d)",
			o.MaxDepth, MaxMaxDepth, DefaultMaxDepth)
	}
	m := DecMode{maxLen: o.MaxCollectionLen, maxDepth: o.MaxDepth, copyStrings: o.CopyStrings}
	if m.maxLen == 0 {
		m.maxLen = DefaultMaxCollectionLen
	}
	if m.maxDepth == 0 {
		m.maxDepth = DefaultMaxDepth
	}
	return m, nil
}

// Options returns the options in effect, with defaults filled in.
func (m DecMode) Options() DecOptions {
	m = m.resolved()
	return DecOptions{MaxCollectionLen: m.maxLen, MaxDepth: m.maxDepth, CopyStrings: m.copyStrings}
}

func (m DecMode) resolved() DecMode {
	if m.maxLen == 0 {
		m.maxLen = DefaultMaxCollectionLen
	}
	if m.maxDepth == 0 {
		m.maxDepth = DefaultMaxDepth
	}
	return m
}

// Sentinel errors wrapped by *DecodeError; test with errors.Is.
var (
	ErrTruncated = errors.New("truncated input")            // a fixed-size value or varint runs past the end
	ErrVersion   = errors.New("unsupported format version") // first byte is not Version
	ErrLength    = errors.New("length exceeds input")       // a length or count needs more bytes than remain
	ErrLimit     = errors.New("decoding limit exceeded")    // MaxCollectionLen or MaxDepth
	ErrVarint    = errors.New("malformed varint")           // overlong, overflowing or out of range
	ErrInvalid   = errors.New("invalid value")              // bad bool byte, unsorted map keys, bad time
	ErrTrailing  = errors.New("trailing bytes")             // bytes left after the value
)

// DecodeError is the error of every failed decode: the byte offset where the
// offending item starts, what was wrong, and the sentinel it wraps.
type DecodeError struct {
	Offset int    // offset in bytes from the start of the input
	Err    error  // one of the Err* sentinels
	Detail string // what was wrong, with the offending values
}

// Error implements error: "wire: offset 17: string length 4000000 exceeds
// remaining 12 bytes".
func (e *DecodeError) Error() string {
	return fmt.Sprintf("wire: offset %d: %s", e.Offset, e.Detail)
}

// Unwrap returns the sentinel.
func (e *DecodeError) Unwrap() error { return e.Err }

// Decoder reads wire values from a byte slice. Errors are sticky: after the
// first failure every read returns a zero value and Err reports that failure,
// so a caller may check once at the end. Counts and lengths it returns are
// always within the input, so loops over them are bounded by the input size.
type Decoder struct {
	data  []byte
	off   int
	str   string // shared copy of data, unless mode.copyStrings
	depth int
	mode  DecMode
	err   *DecodeError
	rs    *reuseState // storage kept between messages (wire/reuse); nil otherwise
}

// NewDecoder returns a Decoder over data with mode m (the zero DecMode for
// the defaults), at depth 1. It reads no version byte: call Version first
// when data is a whole message. Unless m copies strings, it makes one
// private copy of data that decoded strings share.
func NewDecoder(data []byte, m DecMode) *Decoder {
	d := new(Decoder)
	d.init(data, m)
	return d
}

func (d *Decoder) init(data []byte, m DecMode) {
	d.data = data
	d.mode = m.resolved()
	d.depth = 1
	if !d.mode.copyStrings {
		d.str = string(data)
	}
}

// Offset returns the offset of the next byte to read.
func (d *Decoder) Offset() int { return d.off }

// Err returns the first failure, or nil.
func (d *Decoder) Err() error {
	if d.err == nil {
		return nil
	}
	return d.err
}

// Finish returns the first failure, or an ErrTrailing error if bytes remain.
func (d *Decoder) Finish() error {
	if d.err == nil && d.off != len(d.data) {
		d.fail(d.off, ErrTrailing, fmt.Sprintf("%d trailing bytes after the value", len(d.data)-d.off))
	}
	return d.Err()
}

//go:noinline
func (d *Decoder) fail(off int, err error, detail string) {
	if d.err == nil {
		d.err = &DecodeError{Offset: off, Err: err, Detail: detail}
	}
	d.off = len(d.data)
}

// Version reads the format-version byte and fails unless it is Version.
func (d *Decoder) Version() {
	if d.off >= len(d.data) {
		d.fail(d.off, ErrTruncated, "empty input, want format version byte")
		return
	}
	if v := d.data[d.off]; v != Version {
		d.fail(d.off, ErrVersion, fmt.Sprintf("format version %d, want %d", v, Version))
		return
	}
	d.off++
}

// Enter records one more level of nesting and fails (returning false) if that
// exceeds MaxDepth. Pair each successful Enter with Leave.
func (d *Decoder) Enter() bool {
	d.depth++
	if d.depth > d.mode.maxDepth {
		d.failDepth()
		return false
	}
	return true
}

//go:noinline
func (d *Decoder) failDepth() {
	d.fail(d.off, ErrLimit, fmt.Sprintf("nesting depth %d exceeds MaxDepth %d", d.depth, d.mode.maxDepth))
}

// Leave undoes one Enter.
func (d *Decoder) Leave() { d.depth-- }

// enterN is Enter n times, for a collection whose elements nest n-1 levels
// deeper (a list of structs: 2; of structs holding a struct: 3). When one
// Enter fails it undoes the others and returns false; the caller then reads
// no element. Pair a true with leaveN(n).
func (d *Decoder) enterN(n int) bool {
	if d.depth+n <= d.mode.maxDepth {
		d.depth += n
		return true
	}
	return d.enterSlow(n)
}

// enterSlow is enterN past MaxDepth: Enter one level at a time, so that the
// error names the depth of the first level too deep, as nested Enters do.
//
//go:noinline
func (d *Decoder) enterSlow(n int) bool {
	for i := range n {
		if !d.Enter() {
			d.depth -= i
			return false
		}
	}
	return true
}

// leaveN undoes enterN(n).
func (d *Decoder) leaveN(n int) { d.depth -= n }

// Uvarint reads a uvarint.
func (d *Decoder) Uvarint() uint64 {
	if off := d.off; off < len(d.data) && d.data[off] < 0x80 {
		d.off = off + 1
		return uint64(d.data[off])
	}
	return d.uvarintSlow()
}

// uvarintSlow reads a varint of two or more bytes. It reads the next eight
// bytes as one little-endian word (fewer near the end of the input, the
// missing ones standing in as continuation bytes; inputs shorter than eight
// bytes go byte by byte) and gathers the seven-bit
// groups with shifts and masks (uvarintWord). A varint that does not end
// within the word (nine and ten bytes, or cut short by the end of the input)
// is read a byte at a time (uvarintBytes). Both give the same values and the
// same errors.
func (d *Decoder) uvarintSlow() uint64 {
	off := d.off
	var w uint64
	switch {
	case off+8 <= len(d.data):
		w = binary.LittleEndian.Uint64(d.data[off:])
	case off < len(d.data) && len(d.data) >= 8:
		// The input's last eight bytes, shifted so that the varint's first
		// byte is the lowest.
		k := uint(len(d.data)-off) & 7 // 1 to 7 bytes remain
		w = binary.LittleEndian.Uint64(d.data[len(d.data)-8:])>>((64-8*k)&63) | 0x8080808080808080<<(8*k&63)
	default:
		return d.uvarintBytes()
	}
	// stop has the high bit of each byte that could end the varint.
	stop := ^w & 0x8080808080808080
	if stop == 0 {
		return d.uvarintBytes()
	}
	n := bits.TrailingZeros64(stop)>>3 + 1 // bytes in the varint, 1 to 8
	if n > 1 && w>>(8*(n-1))&0xff == 0 {
		d.fail(off, ErrVarint, fmt.Sprintf("overlong varint (%d bytes, last byte 0x00)", n))
		return 0
	}
	d.off = off + n
	return uvarintWord(w & (stop ^ (stop - 1)))
}

// uvarintWord gathers the seven-bit groups of a varint of at most eight
// bytes, read as a little-endian word whose bytes past the varint's last
// are zero.
func uvarintWord(w uint64) uint64 {
	w &= 0x7f7f7f7f7f7f7f7f
	w = w&0x007f007f007f007f | (w&0x7f007f007f007f00)>>1
	w = w&0x00003fff00003fff | (w&0x3fff00003fff0000)>>2
	return w&0x000000000fffffff | (w&0x0fffffff00000000)>>4
}

// uvarintBytes reads a varint a byte at a time.
func (d *Decoder) uvarintBytes() uint64 {
	start := d.off
	var rest []byte
	if start < len(d.data) {
		rest = d.data[start:]
	}
	if len(rest) > 10 {
		rest = rest[:10]
	}
	var x uint64
	for i, b := range rest {
		if i == 9 && b > 1 {
			d.fail(start, ErrVarint, "varint overflows 64 bits")
			return 0
		}
		if b < 0x80 {
			if b == 0 && i > 0 {
				d.fail(start, ErrVarint, fmt.Sprintf("overlong varint (%d bytes, last byte 0x00)", i+1))
				return 0
			}
			d.off = start + i + 1
			return x | uint64(b)<<(7*uint(i))
		}
		x |= uint64(b&0x7f) << (7 * uint(i))
	}
	if d.err == nil {
		d.fail(start, ErrTruncated, fmt.Sprintf("varint runs past the end of the input (%d bytes remain)", len(d.data)-start))
	}
	return 0
}

// Varint reads a zig-zag varint.
func (d *Decoder) Varint() int64 {
	u := d.Uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

// Int32 reads a zig-zag varint and checks it fits an int32.
func (d *Decoder) Int32() int32 {
	start := d.off
	x := d.Varint()
	if x != int64(int32(x)) {
		d.fail(start, ErrVarint, fmt.Sprintf("value %d out of int32 range", x))
		return 0
	}
	return int32(x)
}

// Int reads a zig-zag varint and checks it fits an int.
func (d *Decoder) Int() int {
	start := d.off
	x := d.Varint()
	if x != int64(int(x)) {
		d.fail(start, ErrVarint, fmt.Sprintf("value %d out of int range", x))
		return 0
	}
	return int(x)
}

// Bool reads a bool byte: 0x00 or 0x01.
func (d *Decoder) Bool() bool {
	if off := d.off; off < len(d.data) && d.data[off] <= 1 {
		d.off = off + 1
		return d.data[off] == 1
	}
	d.failBool()
	return false
}

//go:noinline
func (d *Decoder) failBool() {
	if d.err != nil {
		return
	}
	if d.off >= len(d.data) {
		d.fail(d.off, ErrTruncated, "bool runs past the end of the input")
		return
	}
	d.fail(d.off, ErrInvalid, fmt.Sprintf("bool byte 0x%02x, want 0x00 or 0x01", d.data[d.off]))
}

// Float32 reads 4 bytes little-endian as IEEE 754 bits.
func (d *Decoder) Float32() float32 {
	off := d.off
	if off > len(d.data)-4 {
		d.failFixed(4)
		return 0
	}
	d.off = off + 4
	return math.Float32frombits(binary.LittleEndian.Uint32(d.data[off:]))
}

// Float64 reads 8 bytes little-endian as IEEE 754 bits.
func (d *Decoder) Float64() float64 {
	off := d.off
	if off > len(d.data)-8 {
		d.failFixed(8)
		return 0
	}
	d.off = off + 8
	return math.Float64frombits(binary.LittleEndian.Uint64(d.data[off:]))
}

//go:noinline
func (d *Decoder) failFixed(n int) {
	if d.err == nil {
		d.fail(d.off, ErrTruncated, fmt.Sprintf("%d-byte value exceeds remaining %d bytes", n, len(d.data)-d.off))
	}
}

// String reads a length-prefixed string.
func (d *Decoder) String() string {
	// Fast path, small enough to inline: a one-byte length, shared strings.
	if off := d.off; off < len(d.data) && !d.mode.copyStrings {
		if n := int(d.data[off]); n < 0x80 && n < len(d.data)-off {
			d.off = off + 1 + n
			return d.str[off+1 : d.off]
		}
	}
	return d.stringSlow()
}

func (d *Decoder) stringSlow() string {
	start := d.off
	n := d.Uvarint()
	if n > uint64(len(d.data)-d.off) {
		d.failLen(start, "string", n)
		return ""
	}
	s := d.off
	d.off += int(n)
	if d.mode.copyStrings {
		return string(d.data[s:d.off])
	}
	return d.str[s:d.off]
}

// Bytes reads a length-prefixed byte string into a new slice; a zero length
// gives nil.
func (d *Decoder) Bytes() []byte {
	start := d.off
	n := d.Uvarint()
	if n > uint64(len(d.data)-d.off) {
		d.failLen(start, "bytes", n)
		return nil
	}
	if n == 0 {
		return nil
	}
	s := d.off
	d.off += int(n)
	return append([]byte(nil), d.data[s:d.off]...)
}

//go:noinline
func (d *Decoder) failLen(start int, what string, n uint64) {
	if d.err == nil {
		d.fail(start, ErrLength, fmt.Sprintf("%s length %d exceeds remaining %d bytes", what, n, len(d.data)-d.off))
	}
}

// Header reads a slice or map header. minSize is the fewest bytes one element
// (or key-value pair) can take, at least 1: the count is checked against
// MaxCollectionLen and against the bytes that remain before the caller
// allocates anything.
func (d *Decoder) Header(minSize int) (n int, isNil bool) {
	if minSize < 1 {
		minSize = 1
	}
	start := d.off
	h := d.Uvarint()
	if h == 0 {
		return 0, true
	}
	c := h - 1
	if c > uint64(d.mode.maxLen) {
		d.failCount(start, c, minSize, true)
		return 0, true
	}
	if c*uint64(minSize) > uint64(len(d.data)-d.off) {
		d.failCount(start, c, minSize, false)
		return 0, true
	}
	return int(c), false
}

//go:noinline
func (d *Decoder) failCount(start int, c uint64, minSize int, limit bool) {
	if d.err != nil {
		return
	}
	if limit {
		d.fail(start, ErrLimit, fmt.Sprintf("collection length %d exceeds MaxCollectionLen %d", c, d.mode.maxLen))
		return
	}
	d.fail(start, ErrLength, fmt.Sprintf("collection length %d (at least %d bytes each) exceeds remaining %d bytes",
		c, minSize, len(d.data)-d.off))
}

// Time reads a time.Time: varint Unix seconds, uvarint nanoseconds, varint
// zone offset in seconds. Offset 0 gives time.UTC, any other an unnamed
// time.FixedZone.
func (d *Decoder) Time() time.Time {
	sec, nsec, off, ok := d.timeParts()
	if !ok {
		return time.Time{}
	}
	t := time.Unix(sec, nsec)
	if off == 0 {
		return t.In(time.UTC)
	}
	if rs := d.rs; rs != nil {
		if rs.zone == nil || rs.zoneOff != off {
			rs.zone, rs.zoneOff = time.FixedZone("", int(off)), off
		}
		return t.In(rs.zone)
	}
	return t.In(time.FixedZone("", int(off)))
}

// timeParts reads and checks the three parts of a time: Unix seconds,
// nanoseconds in [0, 999999999] and a zone offset in seconds in
// (-86400, 86400). ok is false after any failure.
func (d *Decoder) timeParts() (sec, nsec, off int64, ok bool) {
	sec = d.Varint()
	start := d.off
	ns := d.Uvarint()
	if ns >= 1e9 {
		d.fail(start, ErrInvalid, fmt.Sprintf("nanoseconds %d out of range [0, 999999999]", ns))
		return 0, 0, 0, false
	}
	start = d.off
	off = d.Varint()
	if off <= -86400 || off >= 86400 {
		d.fail(start, ErrInvalid, fmt.Sprintf("zone offset %d s out of range (-86400, 86400)", off))
		return 0, 0, 0, false
	}
	return sec, int64(ns), off, d.err == nil
}

// keyOrder fails unless k sorts strictly after prev.
func (d *Decoder) keyOrder(start int, prev, k string) bool {
	if k > prev {
		return true
	}
	d.failKey(start, prev, k)
	return false
}

//go:noinline
func (d *Decoder) failKey(start int, prev, k string) {
	if d.err == nil {
		d.fail(start, ErrInvalid, fmt.Sprintf("map key %q does not sort after the previous key %q", cut(k), cut(prev)))
	}
}

func cut(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// Strings reads a []string.
func (d *Decoder) Strings() []string { return d.stringsInto(nil) }

// stringsInto reads a []string into s's storage when it is non-nil and large
// enough, into a new slice otherwise.
func (d *Decoder) stringsInto(s []string) []string {
	n, isNil := d.Header(1)
	if isNil || !d.Enter() {
		return nil
	}
	s = resize(s, n)
	for i := range s {
		s[i] = d.String()
	}
	d.Leave()
	return s
}

// resize returns s[:n] when s is non-nil with room for n elements, a new
// slice of n elements otherwise; never nil. The elements are not cleared:
// the caller overwrites every one.
func resize[T any](s []T, n int) []T {
	if s != nil && cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// StringMap reads a map[string]string, checking keys are strictly increasing.
func (d *Decoder) StringMap() map[string]string { return d.stringMapInto(nil) }

// stringMapInto reads a map[string]string into m, cleared, when it is
// non-nil, into a new map otherwise.
func (d *Decoder) stringMapInto(m map[string]string) map[string]string {
	n, isNil := d.Header(2)
	if isNil || !d.Enter() {
		return nil
	}
	if m == nil {
		m = make(map[string]string, n)
	} else {
		clear(m)
	}
	var prev string
	for i := range n {
		start := d.off
		k := d.String()
		if i > 0 && !d.keyOrder(start, prev, k) {
			break
		}
		m[k] = d.String()
		prev = k
	}
	d.Leave()
	return m
}

// StringMapMap reads a map[string]map[string]string, checking keys are
// strictly increasing at both levels.
func (d *Decoder) StringMapMap() map[string]map[string]string { return d.stringMapMapInto(nil) }

// stringMapMapInto reads a map[string]map[string]string into m, cleared,
// when it is non-nil, into a new map otherwise. With reuse storage, m's
// inner maps are kept as spares and refilled for the new entries.
func (d *Decoder) stringMapMapInto(m map[string]map[string]string) map[string]map[string]string {
	n, isNil := d.Header(2)
	if isNil || !d.Enter() {
		return nil
	}
	var spare *[]map[string]string
	if d.rs != nil {
		spare = &d.rs.maps
	}
	if m == nil {
		m = make(map[string]map[string]string, n)
	} else {
		if spare != nil {
			for _, inner := range m {
				if inner != nil {
					*spare = append(*spare, inner)
				}
			}
		}
		clear(m)
	}
	var prev string
	for i := range n {
		start := d.off
		k := d.String()
		if i > 0 && !d.keyOrder(start, prev, k) {
			break
		}
		var inner map[string]string
		if spare != nil && len(*spare) > 0 {
			inner = (*spare)[len(*spare)-1]
			(*spare)[len(*spare)-1] = nil
			*spare = (*spare)[:len(*spare)-1]
		}
		got := d.stringMapInto(inner)
		if got == nil && inner != nil {
			*spare = append(*spare, inner) // a nil inner map: keep the spare
		}
		m[k] = got
		if d.err != nil {
			break
		}
		prev = k
	}
	d.Leave()
	return m
}
