package hostile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
)

// Input is one malformed message for a decoder.
type Input struct {
	// Name says how the input was made, and is unique within one set:
	// "valid", "truncate/17" (the first 17 bytes of the valid encoding),
	// "flip/3" (the third seeded bit-flip copy), "head/msgpack-array32=2^32-1@9"
	// (the head at byte offset 9 replaced by one claiming 2^32-1 elements),
	// "nest/1000000" (a million nested arrays).
	Name string `json:"name"`
	// Data is the message.
	Data []byte `json:"data"`
}

// The wire formats Generate knows, as codec.Info.Format spells them. Any other
// format gets the format-independent inputs only (truncations and bit flips).
const (
	FormatJSON        = "JSON"
	FormatMessagePack = "MessagePack"
	FormatCBOR        = "CBOR"
	FormatGob         = "gob"
	FormatProtobuf    = "Protocol Buffers"
	FormatFlatBuffers = "FlatBuffers"
	FormatWire        = "serbench wire v1" // codec/wire's Format; not imported, so that hostile links no codec
)

// GenOptions says which inputs Generate makes. The zero value means the
// defaults.
type GenOptions struct {
	// Seed seeds the bit flips. The same seed and valid encoding give the
	// same inputs on every run and machine.
	Seed uint64
	// Flips is the number of bit-flip inputs, each the valid encoding with 1
	// to 4 random bits inverted. 0 means DefaultFlips; negative, none.
	Flips int
	// Depth is the nesting depth of the nested-array inputs. Default
	// DefaultDepth (1,000,000).
	Depth int
	// Fanout is how many times the amplification inputs refer to one
	// object (see Amplifications). 0 means DefaultFanout; negative, none.
	Fanout int
}

// Defaults of GenOptions.
const (
	DefaultFlips = 256
	DefaultDepth = 1_000_000
	// DefaultFanout is 20,000: a vector of 20,000 offsets to a table whose
	// vector holds 20,000 offsets to one entry reads as 4x10^8 entries.
	DefaultFanout = 20_000
)

func (o GenOptions) effective() GenOptions {
	if o.Flips == 0 {
		o.Flips = DefaultFlips
	}
	if o.Depth <= 0 {
		o.Depth = DefaultDepth
	}
	if o.Fanout == 0 {
		o.Fanout = DefaultFanout
	}
	return o
}

// Generate returns the malformed inputs for a decoder of format whose valid
// encoding of a scenario value is valid, in this order:
//
//   - "valid": the valid encoding itself, which the decoder should accept;
//   - "truncate/N" for every N in [0, len(valid)): each proper prefix;
//   - "flip/K" for K in [0, Flips): seeded random bit flips;
//   - "head/...": every length or count head found in valid replaced by one
//     that claims 2^32 (or 2^32-1 where the head has 32 bits) or 2^63
//     elements, with the rest of the message unchanged (see Heads);
//   - "nest/N" and "nest-field/N" for JSON, CBOR and MessagePack: N nested
//     one-element arrays, at the top level and as the value of an unknown
//     field "zz" of a one-entry map (what a decoder skips rather than binds);
//   - "dag/N" and "far/double" for FlatBuffers and Cap'n Proto: one object
//     referred to N times (shared offsets, a DAG), a far pointer (see
//     Amplifications), unless Fanout is negative.
//
// It never returns two inputs with the same name.
func Generate(format string, valid []byte, opts GenOptions) []Input {
	opts = opts.effective()
	in := []Input{{Name: "valid", Data: clone(valid)}}
	in = append(in, Truncations(valid)...)
	if opts.Flips > 0 {
		in = append(in, Flips(valid, opts.Seed, opts.Flips)...)
	}
	in = append(in, Heads(format, valid)...)
	in = append(in, Nesting(format, opts.Depth)...)
	if opts.Fanout > 0 {
		in = append(in, Amplifications(format, valid, opts.Fanout)...)
	}
	return in
}

// Truncations returns every proper prefix of valid, shortest first, named
// "truncate/N" for a prefix of N bytes.
func Truncations(valid []byte) []Input {
	out := make([]Input, len(valid))
	for n := range valid {
		out[n] = Input{Name: fmt.Sprintf("truncate/%d", n), Data: clone(valid[:n])}
	}
	return out
}

// Flips returns n copies of valid, each with 1 to 4 distinct bits inverted at
// positions drawn from a PCG generator seeded with seed and a hash of valid,
// named "flip/K". valid empty or n <= 0 gives none.
func Flips(valid []byte, seed uint64, n int) []Input {
	if len(valid) == 0 || n <= 0 {
		return nil
	}
	h := fnv.New64a()
	h.Write(valid)
	r := rand.New(rand.NewPCG(seed, h.Sum64()))
	out := make([]Input, n)
	for k := range out {
		d := clone(valid)
		nbits := min(1+r.IntN(4), 8*len(d))
		for flipped := map[int]bool{}; len(flipped) < nbits; {
			if bit := r.IntN(8 * len(d)); !flipped[bit] {
				flipped[bit] = true
				d[bit/8] ^= 1 << (bit % 8)
			}
		}
		out[k] = Input{Name: fmt.Sprintf("flip/%d", k), Data: d}
	}
	return out
}

// Claims are the element counts that length-head inputs claim.
const (
	Claim32 uint64 = 1 << 32 // 2^32
	Claim63 uint64 = 1 << 63 // 2^63
)

// Heads returns, for each length or count head in valid, copies of valid
// with that head replaced by one claiming 2^32 or 2^63 elements (bytes,
// entries), named "head/<kind>=<claim>@<offset>":
//
//   - MessagePack: every array, map, str, bin and ext head (fix, 8-, 16- or
//     32-bit) becomes array32, map32, str32, bin32 or ext32 claiming 2^32-1,
//     the most a MessagePack head can claim;
//   - CBOR: every definite byte string, text string, array and map head
//     becomes one with an 8-byte argument claiming 2^32 and 2^63;
//   - Protocol Buffers: every length-delimited field's length, nested
//     messages included, becomes a varint claiming 2^32 and 2^63;
//   - gob: every byte below 0x80 (a one-byte unsigned integer: message
//     lengths, field deltas, string lengths, slice and map counts among
//     them) becomes gob's 9-byte or 6-byte form of 2^63 and 2^32;
//   - serbench wire: every minimal uvarint (string lengths, slice and map
//     headers among them) becomes the uvarint of 2^32 and 2^63;
//   - FlatBuffers: every 4-byte-aligned little-endian uint32 (vector and
//     string lengths among them) becomes 2^32-1.
//
// The formats are those of the MessagePack specification
// (github.com/msgpack/msgpack/blob/master/spec.md), RFC 8949 §3 (CBOR), the
// Protocol Buffers encoding guide (protobuf.dev/programming-guides/encoding),
// the encoding/gob package documentation, codec/wire's package documentation
// and the FlatBuffers internals guide. Other formats give none; so does an
// encoding that does not parse as its format.
func Heads(format string, valid []byte) []Input {
	var out []Input
	add := func(kind, claim string, off, headLen int, head []byte) {
		d := make([]byte, 0, len(valid)-headLen+len(head))
		d = append(d, valid[:off]...)
		d = append(d, head...)
		d = append(d, valid[off+headLen:]...)
		out = append(out, Input{Name: fmt.Sprintf("head/%s=%s@%d", kind, claim, off), Data: d})
	}
	switch format {
	case FormatMessagePack:
		for _, h := range heads(valid, msgpackItem) {
			add("msgpack-"+h.kind+"32", "2^32-1", h.off, h.len, msgpackHead32(h.kind))
		}
	case FormatCBOR:
		for _, h := range heads(valid, cborItem) {
			for _, c := range []struct {
				name  string
				claim uint64
			}{{"2^32", Claim32}, {"2^63", Claim63}} {
				head := binary.BigEndian.AppendUint64([]byte{h.major<<5 | 27}, c.claim)
				add("cbor-"+cborMajorName[h.major], c.name, h.off, h.len, head)
			}
		}
	case FormatProtobuf:
		for _, h := range protobufHeads(valid, 0, 0) {
			add("protobuf-len", "2^32", h.off, h.len, binary.AppendUvarint(nil, Claim32))
			add("protobuf-len", "2^63", h.off, h.len, binary.AppendUvarint(nil, Claim63))
		}
	case FormatGob:
		for off, b := range valid {
			if b < 0x80 {
				add("gob-uint", "2^32", off, 1, gobUint(Claim32))
				add("gob-uint", "2^63", off, 1, gobUint(Claim63))
			}
		}
	case FormatWire:
		for off := range valid {
			x, n := binary.Uvarint(valid[off:])
			if n <= 0 || n != len(binary.AppendUvarint(nil, x)) {
				continue
			}
			add("wire-uvarint", "2^32", off, n, binary.AppendUvarint(nil, Claim32))
			add("wire-uvarint", "2^63", off, n, binary.AppendUvarint(nil, Claim63))
		}
	case FormatFlatBuffers:
		for off := 0; off+4 <= len(valid); off += 4 {
			add("flatbuffers-uint32", "2^32-1", off, 4, []byte{0xff, 0xff, 0xff, 0xff})
		}
	}
	return out
}

// gobUint is encoding/gob's encoding of an unsigned integer: one byte below
// 128, otherwise the negated byte count followed by the big-endian bytes.
func gobUint(x uint64) []byte {
	if x < 0x80 {
		return []byte{byte(x)}
	}
	b := binary.BigEndian.AppendUint64(nil, x)
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	return append([]byte{byte(-len(b))}, b...)
}

// Nesting returns the deep-nesting inputs of format (JSON, CBOR and
// MessagePack; none for the others): "nest/N", N nested one-element arrays
// around an empty one, and "nest-field/N", the same as the value of field
// "zz" in a one-entry map (JSON object).
func Nesting(format string, depth int) []Input {
	var open, closeAll, field []byte
	switch format {
	case FormatJSON:
		open = []byte(strings.Repeat("[", depth))
		closeAll = []byte(strings.Repeat("]", depth))
		field = []byte(`{"zz":`)
	case FormatCBOR:
		open = bytes.Repeat([]byte{0x81}, depth) // array of 1 item
		closeAll = []byte{0x80}                  // array of 0 items
		field = []byte{0xa1, 0x62, 'z', 'z'}     // map of 1 pair, text of 2 bytes
	case FormatMessagePack:
		open = bytes.Repeat([]byte{0x91}, depth) // fixarray of 1
		closeAll = []byte{0x90}                  // fixarray of 0
		field = []byte{0x81, 0xa2, 'z', 'z'}     // fixmap of 1, fixstr of 2
	default:
		return nil
	}
	if format == FormatJSON {
		open = append(open, '[')
		closeAll = append(closeAll, ']')
	}
	top := concat(open, closeAll)
	inField := concat(field, open, closeAll)
	if format == FormatJSON {
		inField = append(inField, '}')
	}
	return []Input{
		{Name: fmt.Sprintf("nest/%d", depth), Data: top},
		{Name: fmt.Sprintf("nest-field/%d", depth), Data: inField},
	}
}

func concat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func clone(b []byte) []byte { return append([]byte{}, b...) }
