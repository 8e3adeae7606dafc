package hostile

import (
	"encoding/binary"
	"errors"
)

// head is one length or count head found in an encoding: len bytes at off.
type head struct {
	off, len int
	kind     string // MessagePack: "array", "map", "str", "bin", "ext"
	major    byte   // CBOR: the major type, 2 to 5
}

var errParse = errors.New("hostile: encoding does not parse")

// maxWalkDepth bounds the recursion of the walkers below, which only read
// encodings that serbench's own codecs produced.
const maxWalkDepth = 64

// heads returns the heads that item records of the items in b, one item
// after another, or nil if b is not a sequence of whole items. item walks
// the item at b[p:], appending the heads it meets to hs, and returns the
// offset after it: msgpackItem (every array, map, str, bin and ext head of
// MessagePack) or cborItem (every definite-length byte string, text string,
// array and map head of CBOR).
func heads(b []byte, item func(b []byte, p, depth int, hs *[]head) (int, error)) []head {
	var hs []head
	for p := 0; p < len(b); {
		end, err := item(b, p, 0, &hs)
		if err != nil {
			return nil
		}
		p = end
	}
	return hs
}

// msgpackItem walks the item at b[p:] and returns the offset after it.
func msgpackItem(b []byte, p, depth int, hs *[]head) (int, error) {
	if p >= len(b) || depth > maxWalkDepth {
		return 0, errParse
	}
	c := b[p]
	// size reads an n-byte big-endian unsigned integer after the type byte.
	size := func(n int) (int, error) {
		if p+1+n > len(b) {
			return 0, errParse
		}
		var x uint64
		for _, d := range b[p+1 : p+1+n] {
			x = x<<8 | uint64(d)
		}
		if x > uint64(len(b)) {
			return 0, errParse
		}
		return int(x), nil
	}
	// payload skips n bytes after a head of hl bytes.
	payload := func(kind string, hl, n int) (int, error) {
		*hs = append(*hs, head{off: p, len: hl, kind: kind})
		if p+hl+n > len(b) {
			return 0, errParse
		}
		return p + hl + n, nil
	}
	// items walks n items (2n for a map) after a head of hl bytes.
	items := func(kind string, hl, n int) (int, error) {
		*hs = append(*hs, head{off: p, len: hl, kind: kind})
		if kind == "map" {
			n *= 2
		}
		q := p + hl
		for range n {
			var err error
			if q, err = msgpackItem(b, q, depth+1, hs); err != nil {
				return 0, err
			}
		}
		return q, nil
	}
	switch {
	case c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3: // fixint, nil, bool
		return p + 1, nil
	case c&0xf0 == 0x80:
		return items("map", 1, int(c&0x0f))
	case c&0xf0 == 0x90:
		return items("array", 1, int(c&0x0f))
	case c&0xe0 == 0xa0:
		return payload("str", 1, int(c&0x1f))
	}
	fixed := map[byte]int{0xca: 4, 0xcb: 8, 0xcc: 1, 0xcd: 2, 0xce: 4, 0xcf: 8, 0xd0: 1, 0xd1: 2, 0xd2: 4, 0xd3: 8}
	if n, ok := fixed[c]; ok {
		if p+1+n > len(b) {
			return 0, errParse
		}
		return p + 1 + n, nil
	}
	sized := map[byte]struct {
		kind string
		n    int
	}{
		0xc4: {"bin", 1}, 0xc5: {"bin", 2}, 0xc6: {"bin", 4},
		0xd9: {"str", 1}, 0xda: {"str", 2}, 0xdb: {"str", 4},
		0xdc: {"array", 2}, 0xdd: {"array", 4},
		0xde: {"map", 2}, 0xdf: {"map", 4},
		0xc7: {"ext", 1}, 0xc8: {"ext", 2}, 0xc9: {"ext", 4},
	}
	if s, ok := sized[c]; ok {
		n, err := size(s.n)
		if err != nil {
			return 0, err
		}
		switch s.kind {
		case "array", "map":
			return items(s.kind, 1+s.n, n)
		case "ext": // the type byte follows the length and belongs to the head
			return payload("ext", 2+s.n, n)
		default:
			return payload(s.kind, 1+s.n, n)
		}
	}
	if c >= 0xd4 && c <= 0xd8 { // fixext 1, 2, 4, 8, 16: type byte + data
		return payload("ext", 2, 1<<(c-0xd4))
	}
	return 0, errParse // 0xc1, never used
}

// msgpackHead32 returns the 32-bit head of kind claiming 2^32-1 elements
// (for ext, with type 0).
func msgpackHead32(kind string) []byte {
	t := map[string]byte{"array": 0xdd, "map": 0xdf, "str": 0xdb, "bin": 0xc6, "ext": 0xc9}[kind]
	h := []byte{t, 0xff, 0xff, 0xff, 0xff}
	if kind == "ext" {
		h = append(h, 0)
	}
	return h
}

var cborMajorName = map[byte]string{2: "bytes", 3: "text", 4: "array", 5: "map"}

// cborItem walks the item at b[p:] (RFC 8949 §3) and returns the offset
// after it.
func cborItem(b []byte, p, depth int, hs *[]head) (int, error) {
	if p >= len(b) || depth > maxWalkDepth {
		return 0, errParse
	}
	major, ai := b[p]>>5, b[p]&0x1f
	hl, arg := 1, uint64(ai)
	switch {
	case ai < 24:
	case ai <= 27:
		n := 1 << (ai - 24)
		if p+1+n > len(b) {
			return 0, errParse
		}
		arg = 0
		for _, d := range b[p+1 : p+1+n] {
			arg = arg<<8 | uint64(d)
		}
		hl += n
	case ai == 31 && major >= 2 && major <= 5: // indefinite length: items until a break
		q := p + 1
		for {
			if q >= len(b) {
				return 0, errParse
			}
			if b[q] == 0xff {
				return q + 1, nil
			}
			var err error
			if q, err = cborItem(b, q, depth+1, hs); err != nil {
				return 0, err
			}
		}
	default:
		return 0, errParse
	}
	q := p + hl
	switch major {
	case 0, 1, 7: // integers, simple values and floats: the head is the item
		return q, nil
	case 6: // a tag: one item follows
		return cborItem(b, q, depth+1, hs)
	case 2, 3:
		*hs = append(*hs, head{off: p, len: hl, major: major})
		if arg > uint64(len(b)-q) {
			return 0, errParse
		}
		return q + int(arg), nil
	default: // 4, 5
		*hs = append(*hs, head{off: p, len: hl, major: major})
		if arg > uint64(len(b)) {
			return 0, errParse
		}
		n := int(arg)
		if major == 5 {
			n *= 2
		}
		for range n {
			var err error
			if q, err = cborItem(b, q, depth+1, hs); err != nil {
				return 0, err
			}
		}
		return q, nil
	}
}

// protobufHeads returns the length of every length-delimited field of the
// Protocol Buffers message b (offsets shifted by base), and of the fields of
// any length-delimited payload that parses as a message itself (a nested
// message, or by chance a string), or nil if b does not parse.
func protobufHeads(b []byte, base, depth int) []head {
	var hs []head
	for p := 0; p < len(b); {
		tag, n := binary.Uvarint(b[p:])
		if n <= 0 || tag>>3 == 0 {
			return nil
		}
		p += n
		switch tag & 7 {
		case 0:
			_, n := binary.Uvarint(b[p:])
			if n <= 0 {
				return nil
			}
			p += n
		case 1:
			p += 8
		case 5:
			p += 4
		case 2:
			l, n := binary.Uvarint(b[p:])
			if n <= 0 || l > uint64(len(b)-p-n) {
				return nil
			}
			hs = append(hs, head{off: base + p, len: n})
			payload := b[p+n : p+n+int(l)]
			if depth < maxWalkDepth {
				hs = append(hs, protobufHeads(payload, base+p+n, depth+1)...)
			}
			p += n + int(l)
		default: // groups (3, 4) are not produced by proto3 codecs
			return nil
		}
		if p > len(b) {
			return nil
		}
	}
	return hs
}
