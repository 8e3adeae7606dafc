package all_test

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/mojura/enkodo"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/scenario"
)

// FuzzDecode fuzzes the decode path of every codec of all.Registry in one
// target, so that scripts/fuzz.sh builds one instrumented binary for all of
// them. Its input is a codec ID (an unknown ID picks a codec by its hash, so
// mutated IDs still decode), a scenario index (modulo the number of seed
// scenarios) and the bytes to decode. The seed corpus is every (codec,
// scenario) valid encoding, plus the files under testdata/fuzz/FuzzDecode/
// (the inputs of known findings). SERBENCH_FUZZ_CODEC=<id> fuzzes one codec
// only: `SERBENCH_FUZZ_CODEC=msgpack scripts/fuzz.sh 1m ./codec/all`.
//
// A target fails when decoding panics, unless the panic is a known library
// issue (knownPanics), and when bytes it accepted re-encode to bytes it
// then rejects. Hangs and allocation bombs are out of a fuzz target's reach
// (the fuzzer has no per-input memory or time limit, and a Go program that
// runs out of memory cannot recover); `serbench hostile` measures those in
// a guarded child process, and the inputs that would bring the fuzzer down
// with a known bomb are skipped (knownBombs).

// knownPanic is a library panic that fuzzing (or serbench hostile) found:
// the panic value matches Message and it arose in a function whose name
// starts with Origin. Each has a seed file under testdata/fuzz/<Target>/
// and a row in the findings table of docs/findings/hostile.md.
type knownPanic struct {
	Codec   string
	Origin  string
	Message *regexp.Regexp
	// Seed is the file under testdata/fuzz/<Target>/ that reproduces it.
	Seed string
}

var knownPanics = []knownPanic{
	// shamaton/msgpackgen v0.3.0's decoder reads without bounds checks: an
	// input that ends early (the empty one, say) indexes past its end.
	{Codec: "msgpackgen", Origin: "github.com/shamaton/msgpackgen/msgpack/dec.", Message: regexp.MustCompile(`index out of range|slice bounds out of range`), Seed: "msgpackgen-empty"},
	{Codec: "msgpackgen/array", Origin: "github.com/shamaton/msgpackgen/msgpack/dec.", Message: regexp.MustCompile(`index out of range|slice bounds out of range`), Seed: "msgpackgen-array-empty"},
	// deneonet/benc v1.1.8's std package (benc/plain's decoder) slices a
	// string or varint past the input's end when a length claims more.
	{Codec: "benc/plain", Origin: "github.com/deneonet/benc/std.", Message: regexp.MustCompile(`slice bounds out of range|index out of range`), Seed: "benc-plain-short"},
}

// known returns the entry of list that p (a panic of codecID, recovered,
// with its stack) is, or nil.
func known(list []knownPanic, codecID string, p any, stack string) *knownPanic {
	origin := hostile.PanicOrigin(stack)
	msg := fmt.Sprint(p)
	for i, k := range list {
		if k.Codec == codecID && strings.HasPrefix(origin, k.Origin) && k.Message.MatchString(msg) {
			return &list[i]
		}
	}
	return nil
}

// decodeOrPanic decodes data with b (Unmarshal, then FromNative for a
// Converter) and returns the value or error, or the recovered panic value
// and stack.
func decodeOrPanic(b codec.Binding, data []byte) (native, v, p any, stack string, err error) {
	defer func() {
		if p = recover(); p != nil {
			stack = string(debug.Stack())
		}
	}()
	if native, err = codec.UnmarshalUntrusted(b, data); err != nil {
		return nil, nil, nil, "", err
	}
	v = native
	if conv, ok := b.(codec.Converter); ok {
		v, err = conv.FromNative(native)
	}
	return native, v, nil, "", err
}

// knownBombs skips, for a codec with a known allocation bomb, the inputs
// that would set it off: such an input makes the fuzzer's worker run out of
// memory, which no recover catches. Each is a row in docs/findings/hostile.md's
// table, reproduced by `serbench hostile`.
var knownBombs = map[string]func(data []byte) bool{
	// vmihailenco/msgpack and tinylib/msgp allocate what an array32 or
	// map32 head claims (up to 2^32-1 elements) before reading them.
	"msgpack": msgpackClaimsOver(1 << 20),
	"msgp":    msgpackClaimsOver(1 << 20),
	// shamaton/msgpackgen's generated decoders make a slice or map of the
	// length an array32 or map32 head claims, as the two above.
	"msgpackgen":       msgpackClaimsOver(1 << 20),
	"msgpackgen/array": msgpackClaimsOver(1 << 20),
	// bebopc-go's generated decoder makes an array or map of the length a
	// little-endian uint32 claims, at any offset.
	"bebop": anyUint32Over(binary.LittleEndian, 1<<20),
	// benc's bstd and mus-go's ord make a slice or map of the length a
	// varint claims, at any offset.
	"benc":       uvarintOver(1 << 20),
	"benc/plain": uvarintOver(1 << 20),
	"mus":        uvarintOver(1 << 20),
	// ikkerens/ikeapack makes a slice, map or string of the length a
	// big-endian uint32 claims (up to 2^31-1) before reading it. Any four
	// bytes of text read as such a length, so FuzzDecode skips most
	// ikeapack inputs; serbench hostile measures the rest.
	"ikeapack": anyUint32Over(binary.BigEndian, 1<<20),
	// alecthomas/binary makes a string or slice of the length a varint
	// claims before reading it.
	"alecthomas-binary": uvarintOver(1 << 20),
	// hprose-golang's decoder makes a string, []byte, list, map or class
	// of the size a decimal count after its tag claims (s, b, a, m, c, and
	// a class's field count after its name's closing quote).
	"hprose": hproseCountOver(1 << 20),
	// mojura/enkodo makes a string of the length its varint claims before
	// reading it.
	"enkodo": enkodoIntOver(1 << 20),
}

// enkodoIntOver returns a check for an enkodo varint, read by the library
// itself, above limit and above len(data) at any offset of data.
func enkodoIntOver(limit int) func([]byte) bool {
	return func(data []byte) bool {
		for p := range data {
			var n enkodoInt
			if enkodo.Unmarshal(data[p:], &n) == nil && int(n) > limit && int(n) > len(data) {
				return true
			}
		}
		return false
	}
}

// enkodoInt is an enkodo.Decodee that reads one int.
type enkodoInt int

func (n *enkodoInt) UnmarshalEnkodo(d *enkodo.Decoder) error {
	v, err := d.Int()
	*n = enkodoInt(v)
	return err
}

// hproseCountOver returns a check for a decimal number above limit and
// above len(data) right after a byte of Hprose's counted tags.
func hproseCountOver(limit uint64) func([]byte) bool {
	return func(data []byte) bool {
		for p := 1; p < len(data); p++ {
			if !strings.ContainsRune(`sbamc"`, rune(data[p-1])) {
				continue
			}
			var n uint64
			for q := p; q < len(data) && '0' <= data[q] && data[q] <= '9' && n <= limit; q++ {
				n = n*10 + uint64(data[q]-'0')
			}
			if n > limit && n > uint64(len(data)) {
				return true
			}
		}
		return false
	}
}

// anyUint32Over returns a check for a uint32 in byte order order at any
// offset of data above limit and above len(data). It is coarse: most
// encodings of user-event and annotation hold such four bytes somewhere
// (IDs, floats), so FuzzDecode exercises bebop and ikeapack mostly on the
// other seeds; serbench hostile covers their bombs in guarded child
// processes.
func anyUint32Over(order binary.ByteOrder, limit uint32) func([]byte) bool {
	return func(data []byte) bool {
		for p := 0; p+4 <= len(data); p++ {
			x := order.Uint32(data[p:])
			if x > limit && x > uint32(len(data)) {
				return true
			}
		}
		return false
	}
}

// uvarintOver returns a check for an unsigned varint at any offset of data
// above limit and above len(data) but below 2^48: a larger length makes
// make panic (len out of range), which the fuzzer recovers, instead of
// asking the OS for the memory. (The uint64 IDs of user-event, varints near
// 2^63, thus leave that seed fuzzed.)
func uvarintOver(limit uint64) func([]byte) bool {
	return func(data []byte) bool {
		for p := range data {
			x, n := binary.Uvarint(data[p:])
			if n > 0 && x > limit && x > uint64(len(data)) && x < 1<<48 {
				return true
			}
		}
		return false
	}
}

// msgpackClaimsOver returns a check for a MessagePack 16- or 32-bit array,
// map, str or bin head anywhere in data claiming more than limit elements
// and more than len(data).
func msgpackClaimsOver(limit uint64) func([]byte) bool {
	return func(data []byte) bool {
		for p, c := range data {
			var n int
			switch c {
			case 0xdc, 0xde, 0xda, 0xc5: // array16, map16, str16, bin16
				n = 2
			case 0xdd, 0xdf, 0xdb, 0xc6: // the 32-bit forms
				n = 4
			default:
				continue
			}
			if p+1+n > len(data) {
				continue
			}
			var x uint64
			for _, d := range data[p+1 : p+1+n] {
				x = x<<8 | uint64(d)
			}
			if x > limit && x > uint64(len(data)) {
				return true
			}
		}
		return false
	}
}

func FuzzDecode(f *testing.F) {
	codecs := all.Registry().All()
	if id := os.Getenv("SERBENCH_FUZZ_CODEC"); id != "" {
		c, ok := all.Registry().Lookup(id)
		if !ok {
			f.Fatalf("SERBENCH_FUZZ_CODEC=%s: no such codec", id)
		}
		codecs = []codec.Codec{c}
	}
	seeds := scenario.Seeds()
	type bound struct {
		c        codec.Codec
		bindings []codec.Binding // by scenario; nil where the codec has no schema
	}
	byID := map[string]*bound{}
	var order []*bound
	for _, c := range codecs {
		bc := &bound{c: c, bindings: make([]codec.Binding, len(seeds))}
		byID[c.Info().ID] = bc
		order = append(order, bc)
		for i, s := range seeds {
			b, err := c.Bind(s.Value())
			if err != nil {
				continue
			}
			bc.bindings[i] = b
			v := s.Value()
			if conv, ok := b.(codec.Converter); ok {
				if v, err = conv.ToNative(v); err != nil {
					f.Fatal(err)
				}
			}
			data, err := b.Marshal(v)
			if err != nil {
				continue // a known seed failure (TestRoundTripSeeds checks which): no valid encoding to start from
			}
			f.Add(c.Info().ID, uint8(i), append([]byte(nil), data...))
		}
	}
	f.Fuzz(func(t *testing.T, id string, si uint8, data []byte) {
		bc := byID[id]
		if bc == nil {
			h := fnv.New32a()
			h.Write([]byte(id))
			bc = order[h.Sum32()%uint32(len(order))]
		}
		id = bc.c.Info().ID
		i := int(si) % len(seeds)
		b := bc.bindings[i]
		if b == nil {
			t.Skip()
		}
		if bomb := knownBombs[id]; bomb != nil && bomb(data) {
			t.Skipf("known allocation bomb of %s", id)
		}
		native, _, p, stack, err := decodeOrPanic(b, data)
		if p != nil {
			if k := known(knownPanics, id, p, stack); k != nil {
				t.Skipf("known panic in %s (see %s): %v", k.Origin, k.Seed, p)
			}
			t.Fatalf("%s %s: decoding %q panicked: %v\n%s", id, seeds[i].ID, data, p, stack)
		}
		if err != nil || bc.c.Info().Kind == codec.Reference {
			return
		}
		if dom, ok := b.(codec.DOM); ok {
			// A parse-only codec has no encoding of its tree: walking it
			// (which unescapes fastjson's strings) must not panic.
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("%s %s: walking the tree parsed from %q panicked: %v\n%s", id, seeds[i].ID, data, p, debug.Stack())
					}
				}()
				_, _ = dom.Tree(native) // an error is a finding of the check, not of fuzzing
			}()
			return
		}
		// Accepted: encoding what was decoded must give bytes the codec
		// accepts again. The encoding may fail (a value JSON cannot hold,
		// say); it must not panic.
		enc, err := func() (enc []byte, err error) {
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
				}
			}()
			return b.Marshal(native)
		}()
		if err != nil {
			if strings.HasPrefix(err.Error(), "panic: ") {
				t.Fatalf("%s %s: re-encoding the value decoded from %q: %v", id, seeds[i].ID, data, err)
			}
			return
		}
		enc = append([]byte(nil), enc...)
		if _, _, p, stack, err := decodeOrPanic(b, enc); err != nil || p != nil {
			t.Fatalf("%s %s: accepted %q, re-encoded it as %q and then did not accept that: %v%v\n%s", id, seeds[i].ID, data, enc, err, p, stack)
		}
	})
}

// TestKnownFindings checks that every known panic names a codec, an origin
// and a seed file that exists (go test runs FuzzDecode on the seed files,
// so each known panic is exercised and tolerated there).
func TestKnownFindings(t *testing.T) {
	reg := all.Registry()
	for _, k := range knownPanics {
		if _, ok := reg.Lookup(k.Codec); !ok || k.Origin == "" || k.Message == nil {
			t.Errorf("known panic %+v: needs a codec, an origin and a message", k)
		}
		if _, err := os.Stat(filepath.Join("testdata", "fuzz", "FuzzDecode", k.Seed)); err != nil {
			t.Errorf("known panic of %s: %v", k.Codec, err)
		}
	}
	for id := range knownBombs {
		if _, ok := reg.Lookup(id); !ok {
			t.Errorf("known bomb of %q: no such codec", id)
		}
	}
}

//go:noinline
func indexPanic(b []byte, i int) byte { return b[i] }

// TestKnownPanicMatch checks the matching that lets FuzzDecode tolerate a
// known library panic and no other: same codec, a panic arising in the
// named function, a message matching the pattern.
func TestKnownPanicMatch(t *testing.T) {
	catch := func(f func()) (p any, stack string) {
		defer func() { p, stack = recover(), string(debug.Stack()) }()
		f()
		return nil, ""
	}
	p, stack := catch(func() { indexPanic(nil, 3) })
	list := []knownPanic{{Codec: "msgpack", Origin: "github.com/serbench/serbench/codec/all_test.indexPanic",
		Message: regexp.MustCompile(`^runtime error: index out of range \[3\]`), Seed: "x"}}
	if known(list, "msgpack", p, stack) == nil {
		t.Errorf("panic %v in indexPanic not matched by %+v; stack:\n%s", p, list[0], stack)
	}
	if known(list, "msgp", p, stack) != nil {
		t.Error("the same panic in another codec matched")
	}
	other, otherStack := catch(func() { panic("index out of range [3]") })
	if known(list, "msgpack", other, otherStack) != nil {
		t.Error("a panic arising elsewhere matched")
	}
	list[0].Message = regexp.MustCompile(`slice bounds`)
	if known(list, "msgpack", p, stack) != nil {
		t.Error("a panic with another message matched")
	}
}
