package wire

import (
	"encoding/binary"
	"math"
	"time"
	"unsafe"
)

// viewCursor reads checked bytes in place, with no format checks: its
// users walk only what a View function has checked.
type viewCursor struct {
	data []byte
	off  int
}

func (c *viewCursor) uvarint() uint64 {
	b := c.data[c.off]
	c.off++
	if b < 0x80 {
		return uint64(b)
	}
	x := uint64(b & 0x7f)
	for s := uint(7); ; s += 7 {
		b = c.data[c.off]
		c.off++
		if b < 0x80 {
			return x | uint64(b)<<s
		}
		x |= uint64(b&0x7f) << s
	}
}

func (c *viewCursor) varint() int64 {
	u := c.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

func (c *viewCursor) str() string {
	n := int(c.uvarint())
	b := c.data[c.off : c.off+n : c.off+n]
	c.off += n
	return unsafe.String(unsafe.SliceData(b), n)
}

func (c *viewCursor) float32() float32 {
	f := math.Float32frombits(binary.LittleEndian.Uint32(c.data[c.off:]))
	c.off += 4
	return f
}

func (c *viewCursor) float64() float64 {
	f := math.Float64frombits(binary.LittleEndian.Uint64(c.data[c.off:]))
	c.off += 8
	return f
}

func (c *viewCursor) bool() bool {
	b := c.data[c.off]
	c.off++
	return b == 1
}

// skipString checks a length-prefixed string, as String does with the same
// errors, and moves past it.
func (d *Decoder) skipString() {
	if off := d.off; off < len(d.data) {
		if n := int(d.data[off]); n < 0x80 && n < len(d.data)-off {
			d.off = off + 1 + n
			return
		}
	}
	start := d.off
	n := d.Uvarint()
	if n > uint64(len(d.data)-d.off) {
		d.failLen(start, "string", n)
		return
	}
	d.off += int(n)
}

// viewDecoder returns a Decoder over data whose strings view data itself.
func viewDecoder(data []byte, m DecMode) Decoder {
	d := Decoder{data: data, mode: m.resolved(), depth: 1}
	d.mode.copyStrings = false
	d.str = unsafe.String(unsafe.SliceData(data), len(data))
	return d
}

// list is where a checked collection starts and how many elements it has.
type list struct {
	data  []byte
	off   int // offset of the first element
	n     int
	isNil bool
}

// Len returns the number of elements (0 for nil).
func (l list) Len() int { return l.n }

// IsNil reports whether the collection was encoded as nil (a nil slice or
// map, as against an empty one).
func (l list) IsNil() bool { return l.isNil }

func (l list) cursor() viewCursor { return viewCursor{data: l.data, off: l.off} }

// list reads a collection header and records where its elements start;
// ok is false for a nil collection or a failure.
func (d *Decoder) list(minSize int) (list, bool) {
	n, isNil := d.Header(minSize)
	return list{data: d.data, off: d.off, n: n, isNil: isNil}, !isNil
}

// Iter iterates the elements of a collection view in order, reading each
// in place: for it := v.Iter(); it.Next(); { it.Value() }.
type Iter[E element] struct {
	c    viewCursor
	left int
	cur  E
}

// element lists the types an Iter gives.
type element interface {
	string | StringEntry | StringMapEntry | EventItemView | LabelView | AddressView
}

func newIter[E element](l list) Iter[E] { return Iter[E]{c: l.cursor(), left: l.n} }

// Next moves to the next element and reports whether there is one.
func (it *Iter[E]) Next() bool {
	if it.left == 0 {
		return false
	}
	it.left--
	// A type switch, not a func field: calling through a func value would
	// make the iterator escape to the heap.
	switch x := any(&it.cur).(type) {
	case *string:
		*x = it.c.str()
	case *StringEntry:
		readStringEntry(&it.c, x)
	case *StringMapEntry:
		readStringMapEntry(&it.c, x)
	case *EventItemView:
		readEventItem(&it.c, x)
	case *LabelView:
		readLabel(&it.c, x)
	case *AddressView:
		readAddress(&it.c, x)
	}
	return true
}

// Value returns the current element.
func (it *Iter[E]) Value() E { return it.cur }

// StringsView is a []string read in place.
type StringsView struct{ list }

// Iter returns an iterator over the strings.
func (v StringsView) Iter() Iter[string] { return newIter[string](v.list) }

func (d *Decoder) stringsView() StringsView {
	l, ok := d.list(1)
	if !ok || !d.Enter() {
		return StringsView{l}
	}
	for range l.n {
		d.skipString()
	}
	d.Leave()
	return StringsView{l}
}

// StringMapView is a map[string]string read in place, its entries in
// increasing key order.
type StringMapView struct{ list }

// Iter returns an iterator over the entries in key order.
func (v StringMapView) Iter() Iter[StringEntry] { return newIter[StringEntry](v.list) }

// StringEntry is an entry of a StringMapView.
type StringEntry struct{ Key, Value string }

func readStringEntry(c *viewCursor, e *StringEntry) {
	e.Key = c.str()
	e.Value = c.str()
}

// nextKey reads the key of map entry i and checks that it sorts after
// *prev (the previous key), which it then becomes.
func (d *Decoder) nextKey(i int, prev *string) bool {
	start := d.off
	k := d.String()
	if i > 0 && !d.keyOrder(start, *prev, k) {
		return false
	}
	*prev = k
	return true
}

func (d *Decoder) stringMapView() StringMapView {
	l, ok := d.list(2)
	if !ok || !d.Enter() {
		return StringMapView{l}
	}
	var prev string
	for i := range l.n {
		if !d.nextKey(i, &prev) {
			break
		}
		d.skipString()
	}
	d.Leave()
	return StringMapView{l}
}

// StringMapMapView is a map[string]map[string]string read in place, its
// entries in increasing key order.
type StringMapMapView struct{ list }

// Iter returns an iterator over the entries in key order.
func (v StringMapMapView) Iter() Iter[StringMapEntry] { return newIter[StringMapEntry](v.list) }

// StringMapEntry is an entry of a StringMapMapView.
type StringMapEntry struct {
	Key   string
	Value StringMapView
}

func readStringMapEntry(c *viewCursor, e *StringMapEntry) {
	e.Key = c.str()
	h := c.uvarint()
	e.Value = StringMapView{list{data: c.data, off: c.off, isNil: h == 0}}
	if h > 0 {
		e.Value.n = int(h - 1)
		for range 2 * e.Value.n {
			c.off += int(c.uvarint()) // skip the inner strings
		}
	}
}

func (d *Decoder) stringMapMapView() StringMapMapView {
	l, ok := d.list(2)
	if !ok || !d.Enter() {
		return StringMapMapView{l}
	}
	var prev string
	for i := range l.n {
		if !d.nextKey(i, &prev) {
			break
		}
		if d.stringMapView(); d.err != nil {
			break
		}
	}
	d.Leave()
	return StringMapMapView{l}
}

// Float64sView is a []float64 read in place.
type Float64sView struct{ list }

// At returns element i, which must be in [0, Len()).
func (v Float64sView) At(i int) float64 {
	if uint(i) >= uint(v.n) {
		panic("wire: Float64sView index out of range")
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(v.data[v.off+8*i:]))
}

// BoolsView is a []bool read in place.
type BoolsView struct{ list }

// At returns element i, which must be in [0, Len()).
func (v BoolsView) At(i int) bool {
	if uint(i) >= uint(v.n) {
		panic("wire: BoolsView index out of range")
	}
	return v.data[v.off+i] == 1
}

// TimeView is a time read in place: its three encoded parts.
type TimeView struct {
	Sec    int64 // Unix seconds
	Nsec   int64 // nanoseconds in [0, 999999999]
	Offset int64 // zone offset in seconds east of UTC, in (-86400, 86400)
}

// Time returns the time.Time that Unmarshal gives: in time.UTC for offset
// 0, otherwise in an unnamed time.FixedZone (one allocation).
func (t TimeView) Time() time.Time {
	u := time.Unix(t.Sec, t.Nsec)
	if t.Offset == 0 {
		return u.In(time.UTC)
	}
	return u.In(time.FixedZone("", int(t.Offset)))
}

func (d *Decoder) timeView() TimeView {
	sec, nsec, off, _ := d.timeParts()
	return TimeView{Sec: sec, Nsec: nsec, Offset: off}
}
