package hostile

import (
	"encoding/binary"
	"fmt"
)

// FormatCapnp is the Cap'n Proto format, as codec/capnp's Info spells it.
const FormatCapnp = "Cap'n Proto"

// MaxAmplifiedBytes caps the size of an amplification input: 1 MiB, the
// default largest body of serve's /api (httpapi.DefaultMaxBodyBytes), so
// that every such input reaches a decoder there.
const MaxAmplifiedBytes = 1 << 20

// Amplifications returns the inputs of format (FlatBuffers and Cap'n
// Proto; none for the others) in which one object is referred to many
// times, so that a small message reads as a huge one:
//
//   - "dag/N" (FlatBuffers): every vector of offsets (tables or strings) of
//     valid gets a copy of N offsets that all name its first element, and
//     the offsets that named the vector name the copy. Nested vectors
//     multiply: a vector of tables whose first table holds a vector makes
//     N^2 objects. The copies go at the end of the buffer, so their
//     elements point backwards: the Go runtime adds offsets modulo 2^32,
//     which makes that read as a forward offset would in a buffer built
//     the other way round.
//   - "dag/N" (Cap'n Proto, single-segment messages): every list of
//     pointers gets a copy of N pointers to its first element's object,
//     every list of structs a copy of N copies of its first element (whose
//     pointers all point where the first one's do), children before
//     parents; the pointers that named the lists name the copies.
//   - "far/double" (Cap'n Proto): the root pointer becomes a double-far
//     pointer to a landing pad in a second segment, which points back at
//     the root struct in the first (the encoding spec's far pointers).
//
// N is fanout, lowered so that the input stays within MaxAmplifiedBytes;
// none is made below N = 2 or when valid has no such vector or list. The
// formats are those of the FlatBuffers internals guide and the Cap'n
// Proto encoding spec (capnproto.org/encoding.html).
func Amplifications(format string, valid []byte, fanout int) []Input {
	var out []Input
	switch format {
	case FormatFlatBuffers:
		if d, n := flatbuffersDAG(valid, fanout); d != nil {
			out = append(out, Input{Name: fmt.Sprintf("dag/%d", n), Data: d})
		}
	case FormatCapnp:
		if d, n := capnpDAG(valid, fanout); d != nil {
			out = append(out, Input{Name: fmt.Sprintf("dag/%d", n), Data: d})
		}
		if d := capnpFar(valid); d != nil {
			out = append(out, Input{Name: "far/double", Data: d})
		}
	}
	return out
}

// fbVector is a vector of offsets found in a FlatBuffer: its position, the
// absolute position its first element names, and the offsets naming it.
type fbVector struct {
	pos, first int
	refs       []int
}

// flatbuffersDAG returns valid with every vector of offsets replaced by
// one of n offsets to its first element, and n.
func flatbuffersDAG(valid []byte, fanout int) ([]byte, int) {
	u32 := func(p int) int { return int(binary.LittleEndian.Uint32(valid[p:])) }
	var vecs []fbVector
	for v := 4; v+8 <= len(valid); v += 4 {
		l := u32(v)
		if l < 1 || l > (len(valid)-v-4)/4 {
			continue
		}
		ok := true
		for k := range l {
			e := v + 4 + 4*k
			t := e + u32(e)
			if t >= len(valid) || t%4 != 0 {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		vec := fbVector{pos: v, first: v + 4 + u32(v+4)}
		for q := 0; q < v; q += 4 {
			if q+u32(q) == v {
				vec.refs = append(vec.refs, q)
			}
		}
		if len(vec.refs) > 0 {
			vecs = append(vecs, vec)
		}
	}
	if len(vecs) == 0 {
		return nil, 0
	}
	size := (len(valid) + 3) &^ 3
	n := min(fanout, (MaxAmplifiedBytes-size)/(4*len(vecs))-1)
	if n < 2 {
		return nil, 0
	}
	out := make([]byte, size, size+len(vecs)*4*(n+1))
	copy(out, valid)
	for _, vec := range vecs {
		at := len(out)
		out = binary.LittleEndian.AppendUint32(out, uint32(n))
		for k := range n {
			e := at + 4 + 4*k
			out = binary.LittleEndian.AppendUint32(out, uint32(vec.first-e)) // modulo 2^32
		}
		for _, q := range vec.refs {
			binary.LittleEndian.PutUint32(out[q:], uint32(at-q))
		}
	}
	return out, n
}

// Cap'n Proto pointer kinds (the two low bits) and list element sizes.
const (
	capStruct  = 0
	capList    = 1
	capFar     = 2
	capPtrList = 6 // element size: pointers
	capInline  = 7 // element size: inline composite (structs)
)

// capnpSegment returns the words of valid's only segment, or nil when
// valid is not a single-segment message in the standard framing.
func capnpSegment(valid []byte) []uint64 {
	if len(valid) < 16 || binary.LittleEndian.Uint32(valid) != 0 {
		return nil
	}
	n := int(binary.LittleEndian.Uint32(valid[4:]))
	if n < 1 || 8+8*n != len(valid) {
		return nil
	}
	w := make([]uint64, n)
	for i := range w {
		w[i] = binary.LittleEndian.Uint64(valid[8+8*i:])
	}
	return w
}

// capnpFrame frames segments in the standard serialization: the segment
// count less one, each size in words, padding to a word, the segments.
func capnpFrame(segs ...[]uint64) []byte {
	out := binary.LittleEndian.AppendUint32(nil, uint32(len(segs)-1))
	for _, s := range segs {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(s)))
	}
	if len(out)%8 != 0 {
		out = append(out, 0, 0, 0, 0)
	}
	for _, s := range segs {
		for _, x := range s {
			out = binary.LittleEndian.AppendUint64(out, x)
		}
	}
	return out
}

// capTarget is the word a struct or list pointer at word i points to.
func capTarget(i int, p uint64) int { return i + 1 + int(int32(uint32(p))>>2) }

// capOffset returns p pointing from word i to word t.
func capOffset(p uint64, i, t int) uint64 {
	return p&^0xfffffffc | uint64(uint32(int32(t-i-1)<<2))
}

// capnpLists returns the words holding the list pointers of the message
// in w, children before parents, and whether the walk stayed in bounds.
func capnpLists(w []uint64) []int {
	var lists []int
	steps := 0
	var walk func(i, depth int)
	walk = func(i, depth int) {
		p := w[i]
		steps++
		if p == 0 || depth > 64 || steps > 1<<20 {
			return
		}
		t := capTarget(i, p)
		switch p & 3 {
		case capStruct:
			c, d := int(p>>32&0xffff), int(p>>48)
			if t < 0 || t+c+d > len(w) {
				return
			}
			for k := range d {
				walk(t+c+k, depth+1)
			}
		case capList:
			n := int(p >> 35)
			switch p >> 32 & 7 {
			case capPtrList:
				if t < 0 || t+n > len(w) {
					return
				}
				for k := range n {
					walk(t+k, depth+1)
				}
			case capInline:
				if t < 0 || t+1+n > len(w) {
					return
				}
				tag := w[t]
				c, d := int(tag>>32&0xffff), int(tag>>48)
				count := int(int32(uint32(tag)) >> 2)
				if count < 0 || count*(c+d) > n {
					return
				}
				for e := range count {
					for k := range d {
						walk(t+1+e*(c+d)+c+k, depth+1)
					}
				}
			default:
				return
			}
			lists = append(lists, i)
		}
	}
	walk(0, 0)
	return lists
}

// capnpDAG returns valid with every list of pointers or structs replaced
// as Amplifications says, and n.
func capnpDAG(valid []byte, fanout int) ([]byte, int) {
	w := capnpSegment(valid)
	if w == nil {
		return nil, 0
	}
	lists := capnpLists(w)
	if len(lists) == 0 {
		return nil, 0
	}
	// The widest element (in words) bounds what one copy costs.
	widest := 1
	for _, i := range lists {
		if t := capTarget(i, w[i]); w[i]>>32&7 == capInline {
			widest = max(widest, int(w[t]>>32&0xffff+w[t]>>48))
		}
	}
	n := min(fanout, (MaxAmplifiedBytes-len(valid))/(8*len(lists)*widest)-1)
	if n < 2 {
		return nil, 0
	}
	for _, i := range lists {
		p := w[i]
		t := capTarget(i, p)
		at := len(w)
		if p>>32&7 == capPtrList {
			first := w[t]
			if first&3 > capList || first == 0 {
				continue
			}
			ft := capTarget(t, first)
			for k := range n {
				w = append(w, capOffset(first, at+k, ft))
			}
			w[i] = capOffset(capList|capPtrList<<32|uint64(n)<<35, i, at)
			continue
		}
		tag := w[t]
		c, d := int(tag>>32&0xffff), int(tag>>48)
		if int(int32(uint32(tag))>>2) < 1 || c+d == 0 {
			continue
		}
		w = append(w, tag&^0xffffffff|uint64(uint32(int32(n)<<2)))
		for range n {
			base := len(w)
			w = append(w, w[t+1:t+1+c]...)
			for k := range d {
				q := w[t+1+c+k]
				if q != 0 && q&3 <= capList {
					q = capOffset(q, base+c+k, capTarget(t+1+c+k, q))
				}
				w = append(w, q)
			}
		}
		w[i] = capOffset(capList|capInline<<32|uint64(n*(c+d))<<35, i, at)
	}
	return capnpFrame(w), n
}

// capnpFar returns valid with its root pointer made a double-far pointer
// into a second segment, or nil when valid is not a single-segment message
// with a root struct.
func capnpFar(valid []byte) []byte {
	w := capnpSegment(valid)
	if w == nil || w[0]&3 != capStruct || w[0] == 0 {
		return nil
	}
	root := w[0]
	t := capTarget(0, root)
	if t < 0 || t >= len(w) {
		return nil
	}
	pad := []uint64{
		capFar | uint64(t)<<3, // single far: segment 0, word t
		root &^ 0xfffffffc,    // tag: the root's sizes, offset 0
	}
	w[0] = capFar | 1<<2 | uint64(1)<<32 // double far: segment 1, word 0
	return capnpFrame(w, pad)
}
