package conformance

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// This file reads CBOR on its own, without the library under test, to get
// each vector's expected value: the .cbor files of cbor-wg-test-vectors are
// the CBOR form of their .edn files, so a test's "decoded" member is the
// expected data item, encoded. The reader turns it into a diagnostic
// string (in the spirit of RFC 8949 §8) that diagValue also computes from
// the value the library decoded; equal strings mean equal values.

// maxItemDepth caps the nesting the reader follows. The vendored vectors
// nest far less.
const maxItemDepth = 1000

// item is one CBOR data item.
type item struct {
	major byte   // 0..7
	arg   uint64 // the head's argument: integer, length, tag number, simple value
	str   []byte // byte and text strings (chunks of indefinite ones joined)
	kids  []*item
	float float64
	isF   bool
}

var errShort = errors.New("unexpected end of data")

// readItem reads one data item from b and returns it with the bytes after it.
func readItem(b []byte, depth int) (*item, []byte, error) {
	if depth > maxItemDepth {
		return nil, nil, fmt.Errorf("nested deeper than %d", maxItemDepth)
	}
	if len(b) == 0 {
		return nil, nil, errShort
	}
	it := &item{major: b[0] >> 5}
	ai := b[0] & 0x1f
	b = b[1:]
	indef := false
	switch {
	case ai < 24:
		it.arg = uint64(ai)
	case ai <= 27:
		n := 1 << (ai - 24)
		if len(b) < n {
			return nil, nil, errShort
		}
		for _, c := range b[:n] {
			it.arg = it.arg<<8 | uint64(c)
		}
		if it.major == 7 && n >= 2 {
			it.isF = true
			switch n {
			case 2:
				it.float = half(uint16(it.arg))
			case 4:
				it.float = single(uint32(it.arg))
			case 8:
				it.float = math.Float64frombits(it.arg)
			}
		}
		b = b[n:]
	case ai == 31 && it.major >= 2 && it.major <= 5:
		indef = true
	default:
		return nil, nil, fmt.Errorf("additional information %d in major type %d", ai, it.major)
	}
	var err error
	switch it.major {
	case 2, 3:
		if !indef {
			if uint64(len(b)) < it.arg {
				return nil, nil, errShort
			}
			it.str, b = append([]byte{}, b[:it.arg]...), b[it.arg:]
			break
		}
		it.str = []byte{}
		for {
			if len(b) == 0 {
				return nil, nil, errShort
			}
			if b[0] == 0xff {
				b = b[1:]
				break
			}
			if b[0]>>5 != it.major || b[0]&0x1f == 31 {
				return nil, nil, fmt.Errorf("chunk 0x%02x in an indefinite-length string of major type %d", b[0], it.major)
			}
			var chunk *item
			if chunk, b, err = readItem(b, depth+1); err != nil {
				return nil, nil, err
			}
			it.str = append(it.str, chunk.str...)
		}
	case 4, 5:
		n := it.arg
		if it.major == 5 {
			n *= 2
		}
		for i := uint64(0); indef || i < n; i++ {
			if indef {
				if len(b) == 0 {
					return nil, nil, errShort
				}
				if b[0] == 0xff {
					b = b[1:]
					break
				}
			}
			var kid *item
			if kid, b, err = readItem(b, depth+1); err != nil {
				return nil, nil, err
			}
			it.kids = append(it.kids, kid)
		}
	case 6:
		var kid *item
		if kid, b, err = readItem(b, depth+1); err != nil {
			return nil, nil, err
		}
		it.kids = []*item{kid}
	}
	return it, b, nil
}

// half converts an IEEE 754 binary16 to float64 exactly, NaN payload kept.
func half(h uint16) float64 {
	sign := uint64(h>>15) << 63
	exp, frac := int(h>>10&0x1f), uint64(h&0x3ff)
	switch exp {
	case 0x1f:
		return math.Float64frombits(sign | 0x7ff<<52 | frac<<42)
	case 0:
		f := math.Ldexp(float64(frac), -24)
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float64frombits(sign | uint64(exp-15+1023)<<52 | frac<<42)
}

// single converts an IEEE 754 binary32 to float64 exactly, NaN payload kept
// (a plain conversion may set the quiet bit).
func single(s uint32) float64 {
	if s&0x7f800000 == 0x7f800000 && s&0x7fffff != 0 {
		return math.Float64frombits(uint64(s>>31)<<63 | 0x7ff<<52 | uint64(s&0x7fffff)<<29)
	}
	return float64(math.Float32frombits(s))
}

// mapMember returns the value of the text-string key k of a map item, or nil.
func (it *item) mapMember(k string) *item {
	if it == nil || it.major != 5 {
		return nil
	}
	for i := 0; i+1 < len(it.kids); i += 2 {
		if key := it.kids[i]; key.major == 3 && string(key.str) == k {
			return it.kids[i+1]
		}
	}
	return nil
}

// boolean returns the item as a bool, or def when it is absent or no bool.
func (it *item) boolean(def bool) bool {
	if it == nil || it.major != 7 || (it.arg != 20 && it.arg != 21) || it.isF {
		return def
	}
	return it.arg == 21
}

// diag writes the expected value of it in the diagnostic form diagValue
// gives for decoded Go values. Bignums (tags 2 and 3) are integers, tag 0
// and tag 1 are instants, and map entries are sorted by their key's form,
// since a Go map has no order.
func (it *item) diag() string {
	switch it.major {
	case 0:
		return strconv.FormatUint(it.arg, 10)
	case 1:
		n := new(big.Int).SetUint64(it.arg)
		return n.Neg(n.Add(n, big.NewInt(1))).String()
	case 2:
		return fmt.Sprintf("h'%x'", it.str)
	case 3:
		return strconv.Quote(string(it.str))
	case 4:
		parts := make([]string, len(it.kids))
		for i, k := range it.kids {
			parts[i] = k.diag()
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case 5:
		var parts []string
		for i := 0; i+1 < len(it.kids); i += 2 {
			parts = append(parts, it.kids[i].diag()+": "+it.kids[i+1].diag())
		}
		return diagMap(parts)
	case 6:
		c := it.kids[0]
		switch {
		case (it.arg == 2 || it.arg == 3) && c.major == 2:
			n := new(big.Int).SetBytes(c.str)
			if it.arg == 3 {
				n.Neg(n.Add(n, big.NewInt(1)))
			}
			return n.String()
		case it.arg == 0 && c.major == 3:
			if t, err := time.Parse(time.RFC3339Nano, string(c.str)); err == nil {
				return diagTime(t)
			}
		case it.arg == 1 && (c.major == 0 || c.major == 1):
			if c.major == 0 && c.arg <= math.MaxInt64 {
				return diagTime(time.Unix(int64(c.arg), 0))
			}
			if c.major == 1 && c.arg < math.MaxInt64 {
				return diagTime(time.Unix(-1-int64(c.arg), 0))
			}
		case it.arg == 1 && c.isF && !math.IsNaN(c.float) && !math.IsInf(c.float, 0):
			sec, frac := math.Modf(c.float)
			return diagTime(time.Unix(int64(sec), int64(frac*1e9)))
		}
		return fmt.Sprintf("%d(%s)", it.arg, c.diag())
	}
	if it.isF {
		return diagFloat(it.float)
	}
	switch it.arg {
	case 20:
		return "false"
	case 21:
		return "true"
	case 22:
		return "null"
	case 23:
		return "undefined"
	}
	return fmt.Sprintf("simple(%d)", it.arg)
}

func diagTime(t time.Time) string { return "time(" + t.UTC().Format(time.RFC3339Nano) + ")" }

// diagFloat writes f so that it never reads as an integer: "1.0", "NaN"
// with its bits, "Infinity".
func diagFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return fmt.Sprintf("NaN(%016x)", math.Float64bits(f))
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eN") {
		s += ".0"
	}
	return s
}

func diagMap(entries []string) string {
	sortStrings(entries)
	return "{" + strings.Join(entries, ", ") + "}"
}
