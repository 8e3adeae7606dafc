package hostile_test

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/serbench/serbench/hostile"
)

type sample struct {
	Name string
	Tags []string
	Attr map[string]int
	Blob []byte
}

var theSample = sample{Name: "hostile", Tags: []string{"a", "bb"}, Attr: map[string]int{"k": 1}, Blob: []byte{1, 2, 3}}

// encodings returns a valid encoding of theSample in each format with
// length heads.
func encodings(t testing.TB) map[string][]byte {
	t.Helper()
	mp, err := msgpack.Marshal(theSample)
	if err != nil {
		t.Fatal(err)
	}
	var gb bytes.Buffer
	if err := gob.NewEncoder(&gb).Encode(theSample); err != nil {
		t.Fatal(err)
	}
	// CBOR by hand (RFC 8949 §3): {"n": "hostile", "t": ["a", h'0102']}.
	cb := []byte{0xa2, 0x61, 'n', 0x67, 'h', 'o', 's', 't', 'i', 'l', 'e', 0x61, 't', 0x82, 0x61, 'a', 0x42, 1, 2}
	// Protocol Buffers: field 1 "hostile", field 2 a message whose field 1 is "a".
	inner := protowire.AppendString(protowire.AppendTag(nil, 1, protowire.BytesType), "a")
	pb := protowire.AppendString(protowire.AppendTag(nil, 1, protowire.BytesType), "hostile")
	pb = protowire.AppendBytes(protowire.AppendTag(pb, 2, protowire.BytesType), inner)
	pb = protowire.AppendVarint(protowire.AppendTag(pb, 3, protowire.VarintType), 300)
	// serbench wire: a string of 7 bytes then a slice header (2 elements + 1).
	wr := append(append([]byte{1, 7}, "hostile"...), 3, 1, 'a', 1, 'b')
	return map[string][]byte{
		hostile.FormatMessagePack: mp, hostile.FormatGob: gb.Bytes(), hostile.FormatCBOR: cb,
		hostile.FormatProtobuf: pb, hostile.FormatWire: wr, hostile.FormatJSON: []byte(`{"Name":"hostile"}`),
		hostile.FormatFlatBuffers: make([]byte, 16),
	}
}

func TestGenerateDeterministic(t *testing.T) {
	for format, valid := range encodings(t) {
		opts := hostile.GenOptions{Seed: 7, Flips: 32, Depth: 100}
		a, b := hostile.Generate(format, valid, opts), hostile.Generate(format, valid, opts)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two calls with the same options differ", format)
		}
		opts.Seed = 8
		if c := hostile.Generate(format, valid, opts); reflect.DeepEqual(a, c) {
			t.Errorf("%s: seeds 7 and 8 give the same inputs", format)
		}
		names := map[string]bool{}
		var truncs, flips int
		for _, in := range a {
			if names[in.Name] {
				t.Errorf("%s: input name %q twice", format, in.Name)
			}
			names[in.Name] = true
			switch {
			case strings.HasPrefix(in.Name, "truncate/"):
				n, _ := strconv.Atoi(strings.TrimPrefix(in.Name, "truncate/"))
				if !bytes.Equal(in.Data, valid[:n]) {
					t.Errorf("%s: %s is not the first %d bytes", format, in.Name, n)
				}
				truncs++
			case strings.HasPrefix(in.Name, "flip/"):
				if len(in.Data) != len(valid) || bytes.Equal(in.Data, valid) {
					t.Errorf("%s: %s does not flip bits of the valid encoding", format, in.Name)
				}
				flips++
			}
		}
		if a[0].Name != "valid" || !bytes.Equal(a[0].Data, valid) || truncs != len(valid) || flips != 32 {
			t.Errorf("%s: first input %q, %d truncations, %d flips; want valid, %d, 32", format, a[0].Name, truncs, flips, len(valid))
		}
	}
}

// heads returns the offsets and data of the length-head inputs for format,
// each with the claim its name states.
func heads(t *testing.T, format string, valid []byte) map[int][][]byte {
	t.Helper()
	out := map[int][][]byte{}
	for _, in := range hostile.Heads(format, valid) {
		at := strings.LastIndexByte(in.Name, '@')
		off, err := strconv.Atoi(in.Name[at+1:])
		if !strings.HasPrefix(in.Name, "head/") || at < 0 || err != nil {
			t.Fatalf("%s: bad head input name %q", format, in.Name)
		}
		if !bytes.Equal(in.Data[:off], valid[:off]) {
			t.Errorf("%s: %s changes bytes before its offset", format, in.Name)
		}
		out[off] = append(out[off], in.Data)
	}
	return out
}

func TestHeadsClaim(t *testing.T) {
	enc := encodings(t)

	// MessagePack: every head the walker finds reads, with the msgpack
	// library, as a 32-bit head claiming 2^32-1.
	mp := enc[hostile.FormatMessagePack]
	hs := heads(t, hostile.FormatMessagePack, mp)
	// theSample has a map (the struct), 4 field-name strings, "hostile",
	// an array of 2 strings, a map of 1 pair with its key, and a bin.
	if len(hs) != 12 {
		t.Errorf("msgpack: %d heads, want 12", len(hs))
	}
	for off, ds := range hs {
		d := ds[0]
		var n int
		var err error
		switch d[off] {
		case 0xdd:
			n, err = msgpack.NewDecoder(bytes.NewReader(d[off:])).DecodeArrayLen()
		case 0xdf:
			n, err = msgpack.NewDecoder(bytes.NewReader(d[off:])).DecodeMapLen()
		case 0xdb, 0xc6:
			n, err = msgpack.NewDecoder(bytes.NewReader(d[off:])).DecodeBytesLen()
		default:
			t.Errorf("msgpack: head at %d is % x, want array32, map32, str32 or bin32", off, d[off])
			continue
		}
		if err != nil || n != 1<<32-1 {
			t.Errorf("msgpack: head at %d claims %d (%v), want 2^32-1", off, n, err)
		}
	}

	// CBOR: the 5 heads of the hand-made encoding, each claiming 2^32 and
	// 2^63 with an 8-byte argument of the same major type.
	cb := enc[hostile.FormatCBOR]
	hs = heads(t, hostile.FormatCBOR, cb)
	for _, off := range []int{0, 1, 3, 11, 13, 14, 16} {
		ds := hs[off]
		if len(ds) != 2 {
			t.Errorf("cbor: %d inputs for the head at %d, want 2", len(ds), off)
			continue
		}
		for i, claim := range []uint64{hostile.Claim32, hostile.Claim63} {
			d := ds[i]
			if d[off] != cb[off]&0xe0|27 || binary.BigEndian.Uint64(d[off+1:]) != claim {
				t.Errorf("cbor: head at %d is % x, want major %d claiming %d", off, d[off:off+9], cb[off]>>5, claim)
			}
		}
	}
	if len(hs) != 7 {
		t.Errorf("cbor: heads at %d offsets, want 7", len(hs))
	}

	// Protocol Buffers: both length fields and the nested one.
	pb := enc[hostile.FormatProtobuf]
	hs = heads(t, hostile.FormatProtobuf, pb)
	if len(hs) != 3 {
		t.Errorf("protobuf: heads at %d offsets, want 3 (two fields and the nested one)", len(hs))
	}
	for off, ds := range hs {
		for i, claim := range []uint64{hostile.Claim32, hostile.Claim63} {
			if v, n := protowire.ConsumeVarint(ds[i][off:]); n < 0 || v != claim {
				t.Errorf("protobuf: length at %d claims %d, want %d", off, v, claim)
			}
		}
	}

	// gob: a string field's length, replaced, makes encoding/gob see the
	// claim (it refuses it by name).
	gb := enc[hostile.FormatGob]
	at := bytes.Index(gb, []byte("\x07hostile"))
	ds := heads(t, hostile.FormatGob, gb)[at]
	if len(ds) != 2 {
		t.Fatalf("gob: %d inputs at the length of \"hostile\" (offset %d), want 2", len(ds), at)
	}
	want := [][]byte{{0xfb, 1, 0, 0, 0, 0}, {0xf8, 0x80, 0, 0, 0, 0, 0, 0, 0}}
	for i, d := range ds {
		if !bytes.HasPrefix(d[at:], want[i]) {
			t.Errorf("gob: length is % x, want % x", d[at:at+len(want[i])], want[i])
		}
		var s sample
		if err := gob.NewDecoder(bytes.NewReader(d)).Decode(&s); err == nil {
			t.Errorf("gob: decoding a string that claims %d bytes succeeded", []uint64{hostile.Claim32, hostile.Claim63}[i])
		}
	}

	// wire: the string length (offset 1) and the slice header (offset 9).
	wr := enc[hostile.FormatWire]
	hs = heads(t, hostile.FormatWire, wr)
	for _, off := range []int{1, 9} {
		for i, claim := range []uint64{hostile.Claim32, hostile.Claim63} {
			if v, n := binary.Uvarint(hs[off][i][off:]); n <= 0 || v != claim {
				t.Errorf("wire: uvarint at %d claims %d, want %d", off, v, claim)
			}
		}
	}

	// FlatBuffers: every aligned uint32.
	if n := len(hostile.Heads(hostile.FormatFlatBuffers, enc[hostile.FormatFlatBuffers])); n != 4 {
		t.Errorf("flatbuffers: %d heads in 16 bytes, want 4", n)
	}
	// JSON has none, and a format Heads does not know neither.
	if n := len(hostile.Heads(hostile.FormatJSON, enc[hostile.FormatJSON])) + len(hostile.Heads("XML", []byte("<a/>"))); n != 0 {
		t.Errorf("JSON and XML: %d heads, want none", n)
	}
}

func TestNesting(t *testing.T) {
	const depth = 1_000_000
	for _, tt := range []struct {
		format     string
		top, field int // lengths
		prefix     string
	}{
		{hostile.FormatJSON, 2*depth + 2, 2*depth + 2 + 7, "[["},
		{hostile.FormatCBOR, depth + 1, depth + 1 + 4, "\x81\x81"},
		{hostile.FormatMessagePack, depth + 1, depth + 1 + 4, "\x91\x91"},
	} {
		in := hostile.Nesting(tt.format, depth)
		if len(in) != 2 || in[0].Name != fmt.Sprintf("nest/%d", depth) || len(in[0].Data) != tt.top || len(in[1].Data) != tt.field ||
			!strings.HasPrefix(string(in[0].Data), tt.prefix) {
			t.Errorf("%s: got %d inputs, want nest/%d of %d bytes and nest-field of %d", tt.format, len(in), depth, tt.top, tt.field)
		}
	}
	if in := hostile.Nesting(hostile.FormatProtobuf, 10); in != nil {
		t.Errorf("protobuf: %d nesting inputs, want none", len(in))
	}
}
