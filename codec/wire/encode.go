package wire

import (
	"math"
	"strings"
	"time"
)

// Version is the format version, the first byte of every message.
const Version = 1

// AppendUvarint appends x as a uvarint (1 to 10 bytes).
func AppendUvarint(dst []byte, x uint64) []byte {
	if x < 0x80 {
		return append(dst, byte(x))
	}
	return appendUvarintSlow(dst, x)
}

// appendUvarintSlow appends a varint of two bytes or more, one append per
// byte. Writing it in one step (length from the highest bit, one capacity
// check, then stores) measured slower: 12.8 against 9.8 ns for ws-message's
// marshal, whose timestamp takes 6 bytes, because this loop is small enough
// to inline and that one is not.
func appendUvarintSlow(dst []byte, x uint64) []byte {
	for x >= 0x80 {
		dst = append(dst, byte(x)|0x80)
		x >>= 7
	}
	return append(dst, byte(x))
}

// AppendVarint appends x zig-zag mapped, as a uvarint.
func AppendVarint(dst []byte, x int64) []byte {
	return AppendUvarint(dst, uint64(x<<1)^uint64(x>>63))
}

// AppendBool appends 0x01 for true and 0x00 for false.
func AppendBool(dst []byte, b bool) []byte {
	if b {
		return append(dst, 1)
	}
	return append(dst, 0)
}

// AppendFloat32 appends the IEEE 754 bits of f, 4 bytes little-endian.
func AppendFloat32(dst []byte, f float32) []byte {
	u := math.Float32bits(f)
	return append(dst, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
}

// AppendFloat64 appends the IEEE 754 bits of f, 8 bytes little-endian.
func AppendFloat64(dst []byte, f float64) []byte {
	u := math.Float64bits(f)
	return append(dst, byte(u), byte(u>>8), byte(u>>16), byte(u>>24),
		byte(u>>32), byte(u>>40), byte(u>>48), byte(u>>56))
}

// AppendString appends the uvarint length of s, then s.
func AppendString(dst []byte, s string) []byte {
	if len(s) < 0x80 {
		return append(append(dst, byte(len(s))), s...)
	}
	return appendStringSlow(dst, s)
}

func appendStringSlow(dst []byte, s string) []byte {
	dst = AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// AppendBytes appends the uvarint length of b, then b. nil and empty both
// give a zero length (and decode as nil).
func AppendBytes(dst []byte, b []byte) []byte {
	dst = AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

// AppendHeader appends a slice or map header: 0 when isNil, n+1 otherwise.
func AppendHeader(dst []byte, n int, isNil bool) []byte {
	if isNil {
		return append(dst, 0)
	}
	return AppendUvarint(dst, uint64(n)+1)
}

// AppendTime appends t as varint Unix seconds, uvarint nanoseconds and
// varint zone offset in seconds. The location's name and the monotonic clock
// reading are not written.
func AppendTime(dst []byte, t time.Time) []byte {
	_, off := t.Zone()
	dst = AppendVarint(dst, t.Unix())
	dst = AppendUvarint(dst, uint64(t.Nanosecond()))
	return AppendVarint(dst, int64(off))
}

// smallMap is how many map entries are sorted on the stack; larger maps sort
// a slice on the heap.
const smallMap = 8

type strPair struct{ k, v string }

// AppendStringMap appends m as a map header then its entries in increasing
// key order.
func AppendStringMap(dst []byte, m map[string]string) []byte {
	return appendStringMap(dst, m, nil)
}

// keyCache remembers the sorted keys of the maps of the last message a
// Binding encoded, one slot per map in the order the message holds them, so
// that the next message with the same keys is written without ranging over
// its maps (Go's map iteration, with its random start, costs more than the
// copying on the seed messages) or sorting. A slot is used when the map has
// as many entries as the slot has keys and every key is found in it: then
// the two key sets are equal. Keys are cloned into the cache (allocation
// only when a map's keys change). Not safe for concurrent use: one per
// Binding.
type keyCache struct {
	slots [][]string
	next  int
}

// slot returns the index of the next slot of the message being encoded.
func (c *keyCache) slot() int {
	if c.next == len(c.slots) {
		c.slots = append(c.slots, nil)
	}
	c.next++
	return c.next - 1
}

// appendStringMap is AppendStringMap with an optional key cache.
func appendStringMap(dst []byte, m map[string]string, kc *keyCache) []byte {
	if m == nil {
		return append(dst, 0)
	}
	dst = AppendUvarint(dst, uint64(len(m))+1)
	if len(m) == 0 {
		return dst
	}
	slot := -1
	if kc != nil {
		slot = kc.slot()
		if keys := kc.slots[slot]; len(keys) == len(m) {
			mark := len(dst)
			hit := true
			for _, k := range keys {
				v, ok := m[k]
				if !ok {
					hit = false
					break
				}
				dst = AppendString(dst, k)
				dst = AppendString(dst, v)
			}
			if hit {
				return dst
			}
			dst = dst[:mark]
		}
	}
	if len(m) == 1 && kc == nil {
		for k, v := range m {
			dst = AppendString(dst, k)
			dst = AppendString(dst, v)
		}
		return dst
	}
	var buf [smallMap]strPair
	ps := buf[:0]
	if len(m) > smallMap {
		ps = make([]strPair, 0, len(m))
	}
	for k, v := range m {
		ps = append(ps, strPair{k, v})
	}
	sortStrPairs(ps)
	for i := range ps {
		dst = AppendString(dst, ps[i].k)
		dst = AppendString(dst, ps[i].v)
	}
	if kc != nil {
		keys := kc.slots[slot][:0]
		for i := range ps {
			keys = append(keys, strings.Clone(ps[i].k))
		}
		kc.slots[slot] = keys
	}
	return dst
}

// sortStrPairs sorts by key: insertion sort, which beats anything cleverer on
// the handful of entries these payloads hold, falling back to a shell-sort
// gap sequence for larger inputs so the worst case stays reasonable.
func sortStrPairs(ps []strPair) {
	gap := 1
	for gap < len(ps)/3 {
		gap = 3*gap + 1
	}
	for ; gap > 0; gap /= 3 {
		for i := gap; i < len(ps); i++ {
			p := ps[i]
			j := i
			for j >= gap && ps[j-gap].k > p.k {
				ps[j] = ps[j-gap]
				j -= gap
			}
			ps[j] = p
		}
	}
}

type mapPair struct {
	k string
	v map[string]string
}

// sortMapPairs is sortStrPairs for map values. It is written out rather
// than shared through a generic pair type: the generic version, instantiated
// for a pointer-shaped value, made user-event's wire/reuse marshal about 5%
// slower (serbench compare of two -count 20 runs).
func sortMapPairs(ps []mapPair) {
	gap := 1
	for gap < len(ps)/3 {
		gap = 3*gap + 1
	}
	for ; gap > 0; gap /= 3 {
		for i := gap; i < len(ps); i++ {
			p := ps[i]
			j := i
			for j >= gap && ps[j-gap].k > p.k {
				ps[j] = ps[j-gap]
				j -= gap
			}
			ps[j] = p
		}
	}
}

// AppendStringMapMap appends m as a map header then its entries in
// increasing key order, each value as by AppendStringMap.
func AppendStringMapMap(dst []byte, m map[string]map[string]string) []byte {
	return appendStringMapMap(dst, m, nil)
}

// appendStringMapMap is AppendStringMapMap with an optional key cache: one
// slot for the outer keys, then one per inner map in key order.
func appendStringMapMap(dst []byte, m map[string]map[string]string, kc *keyCache) []byte {
	if m == nil {
		return append(dst, 0)
	}
	dst = AppendUvarint(dst, uint64(len(m))+1)
	if kc != nil {
		slot := kc.slot()
		if keys := kc.slots[slot]; len(keys) == len(m) && len(m) > 0 {
			mark, next := len(dst), kc.next
			hit := true
			for _, k := range keys {
				v, ok := m[k]
				if !ok {
					hit = false
					break
				}
				dst = AppendString(dst, k)
				dst = appendStringMap(dst, v, kc)
			}
			if hit {
				return dst
			}
			dst, kc.next = dst[:mark], next
		}
		return appendStringMapMapSorted(dst, m, kc, slot)
	}
	return appendStringMapMapSorted(dst, m, nil, -1)
}

// appendStringMapMapSorted writes m's entries after ranging over it and
// sorting, and records the sorted keys in kc's slot when kc is not nil.
func appendStringMapMapSorted(dst []byte, m map[string]map[string]string, kc *keyCache, slot int) []byte {
	var buf [smallMap]mapPair
	ps := buf[:0]
	if len(m) > smallMap {
		ps = make([]mapPair, 0, len(m))
	}
	for k, v := range m {
		ps = append(ps, mapPair{k, v})
	}
	sortMapPairs(ps)
	for i := range ps {
		dst = AppendString(dst, ps[i].k)
		dst = appendStringMap(dst, ps[i].v, kc)
	}
	if kc != nil {
		keys := kc.slots[slot][:0]
		for i := range ps {
			keys = append(keys, strings.Clone(ps[i].k))
		}
		kc.slots[slot] = keys
	}
	return dst
}

// AppendStrings appends a slice header then each string.
func AppendStrings(dst []byte, s []string) []byte {
	dst = AppendHeader(dst, len(s), s == nil)
	for _, x := range s {
		dst = AppendString(dst, x)
	}
	return dst
}
