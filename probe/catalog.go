package probe

import (
	"bytes"
	"fmt"
	"math"
	"time"
	_ "time/tzdata" // the zone probe must not depend on the machine's zoneinfo

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
)

// The probe types. Each is a struct so that every codec that takes a
// struct can take it; fields are exported unless the probe is about
// unexported fields.
type (
	int64Extremes struct{ Min, Max int64 }
	uint64Max     struct{ Max uint64 }
	beyond2p53    struct {
		I int64
		U uint64
	}
	floats64   struct{ F, G float64 }
	float64One struct{ F float64 }
	float32s   struct {
		Tenth, Max, Subnormal float32
	}
	timeValue struct{ T time.Time }
	intSlice  struct{ S []int }
	stringMap struct{ M map[string]int }
	byteSlice struct{ B []byte }
	stringOne struct{ S string }
	embedBase struct{ ID int }
	// EmbedExtra is embedded by pointer in the struct-embedded probe; it is
	// exported because encoding/json cannot set an embedded pointer to an
	// unexported struct type.
	EmbedExtra struct{ Note string }
	embedded   struct {
		embedBase
		*EmbedExtra
		Name string
	}
	anonymous struct {
		P struct {
			A int
			B string
		}
	}
	unexported struct {
		Public  int
		private int
	}
	omitEmpty struct {
		S []int          `json:"s,omitempty" msgpack:"s,omitempty" cbor:"s,omitempty"`
		M map[string]int `json:"m,omitempty" msgpack:"m,omitempty" cbor:"m,omitempty"`
	}
	omitEmptyPtr struct {
		S *string `json:"s,omitempty" msgpack:"s,omitempty" cbor:"s,omitempty"`
		I *int    `json:"i,omitempty" msgpack:"i,omitempty" cbor:"i,omitempty"`
	}
	point      struct{ X, Y int }
	anyValue   struct{ V any }
	intKeys    struct{ M map[int]string }
	structKeys struct{ M map[point]string }
	zeroPtrs   struct {
		I *int
		S *string
		B *bool
	}
	// Nested is the deep-nesting and cycle probes' type: a linked list.
	Nested struct {
		Next *Nested
	}
)

// DeepLevels is the depth of the deep-nesting probe: one more than
// encoding/json's decoder accepts (maxNestingDepth = 10000 in
// encoding/json/scanner.go), so every limit at or below that shows.
const DeepLevels = 10001

// LargeBytes is the length of the large []byte probe: 1 MiB, beyond every
// 16-bit length head.
const LargeBytes = 1 << 20

// Catalog returns every probe, in the order reports show them. Each call
// returns new Probes; their values are deterministic. Probes whose value
// has the Go type of a seed scenario field carry a Seed (seed.go).
func Catalog() []Probe {
	strict := fidelity.DiffStrict
	return []Probe{
		{ID: "int64-extremes", Group: "integers", Doc: "int64 minimum and maximum", New: func() any { return &int64Extremes{math.MinInt64, math.MaxInt64} }},
		{ID: "uint64-max", Group: "integers", Doc: "uint64 maximum, 2^64-1", New: func() any { return &uint64Max{math.MaxUint64} }, Seed: idsSeed(math.MaxUint64)},
		{ID: "int-2^53+1", Group: "integers", Doc: "2^53+1 in int64 and uint64: the first integer a float64 cannot hold", New: func() any { return &beyond2p53{1<<53 + 1, 1<<53 + 1} }, Seed: idsSeed(1<<53 + 1)},
		{ID: "float-nan", Group: "floats", Doc: "float64 NaN (kept when a NaN comes back)", New: func() any { return &float64One{math.NaN()} }, Seed: scoresSeed(math.NaN())},
		{ID: "float-inf", Group: "floats", Doc: "float64 +Inf and -Inf", New: func() any { return &floats64{math.Inf(1), math.Inf(-1)} }, Seed: scoresSeed(math.Inf(1), math.Inf(-1))},
		{ID: "float-negzero", Group: "floats", Doc: "float64 -0 (compared by sign bit)", New: func() any { return &float64One{math.Copysign(0, -1)} }, Compare: strict, Seed: scoresSeed(math.Copysign(0, -1))},
		{ID: "float-subnormal", Group: "floats", Doc: "smallest float64 subnormal, 5e-324", New: func() any { return &float64One{math.SmallestNonzeroFloat64} }, Seed: scoresSeed(math.SmallestNonzeroFloat64)},
		{ID: "float32-precision", Group: "floats", Doc: "float32 0.1, its maximum and smallest subnormal, in float32 fields", New: func() any {
			return &float32s{0.1, math.MaxFloat32, math.SmallestNonzeroFloat32}
		}, Seed: float32Seed()},
		{ID: "time-nanos", Group: "time", Doc: "UTC time with nanoseconds (compared as instants)", New: func() any {
			return &timeValue{nanosTime()}
		}, Seed: createdAtSeed(nanosTime)},
		{ID: "time-zone", Group: "time", Doc: "time in America/New_York (zone name and offset compared)", New: func() any {
			return &timeValue{zoneTime()}
		}, Compare: strict, Seed: createdAtSeed(zoneTime)},
		{ID: "time-offset", Group: "time", Doc: "time at a fixed +05:30 offset with no zone name (offset compared)", New: func() any {
			return &timeValue{offsetTime()}
		}, Compare: strict, Seed: createdAtSeed(offsetTime)},
		{ID: "time-zero", Group: "time", Doc: "the zero time.Time, 0001-01-01 UTC", New: func() any { return &timeValue{} }, Seed: createdAtSeed(func() time.Time { return time.Time{} })},
		{ID: "time-year-10000", Group: "time", Doc: "year 10000, beyond RFC 3339's four digits", New: func() any {
			return &timeValue{year10000()}
		}, Seed: createdAtSeed(year10000)},
		{ID: "time-year-negative", Group: "time", Doc: "year -1", New: func() any {
			return &timeValue{yearNegative()}
		}, Seed: createdAtSeed(yearNegative)},
		{ID: "slice-nil", Group: "nil and empty", Doc: "nil []int", New: func() any { return &intSlice{} }, Seed: tagsSeed(nil)},
		{ID: "slice-empty", Group: "nil and empty", Doc: "empty, non-nil []int", New: func() any { return &intSlice{[]int{}} }, Seed: tagsSeed([]string{})},
		{ID: "map-nil", Group: "nil and empty", Doc: "nil map[string]int", New: func() any { return &stringMap{} }, Seed: metadataSeed(func() map[string]string { return nil })},
		{ID: "map-empty", Group: "nil and empty", Doc: "empty, non-nil map[string]int", New: func() any { return &stringMap{map[string]int{}} }, Seed: metadataSeed(func() map[string]string { return map[string]string{} })},
		{ID: "bytes-nil", Group: "bytes", Doc: "nil []byte", New: func() any { return &byteSlice{} }},
		{ID: "bytes-empty", Group: "bytes", Doc: "empty, non-nil []byte", New: func() any { return &byteSlice{[]byte{}} }},
		{ID: "bytes-1MiB", Group: "bytes", Doc: "1 MiB []byte of every byte value", New: func() any {
			b := make([]byte, LargeBytes)
			for i := range b {
				b[i] = byte(i * 7)
			}
			return &byteSlice{b}
		}},
		{ID: "string-invalid-utf8", Group: "strings", Doc: `string with bytes that are not UTF-8: "a\xffb\xc0"`, New: func() any { return &stringOne{"a\xffb\xc0"} }, Seed: contentSeed("a\xffb\xc0")},
		{ID: "string-nul", Group: "strings", Doc: `string with a NUL byte: "a\x00b"`, New: func() any { return &stringOne{"a\x00b"} }, Seed: contentSeed("a\x00b")},
		{ID: "string-html", Group: "strings", Doc: `string with HTML characters: <a href="x">&</a>`, New: func() any { return &stringOne{`<a href="x">&</a>`} },
			Wire: htmlNote, Seed: contentSeed(`<a href="x">&</a>`)},
		{ID: "string-u2028", Group: "strings", Doc: "string with U+2028 and U+2029, line separators to JavaScript", New: func() any { return &stringOne{"a\u2028b\u2029c"} },
			Wire: separatorNote, Seed: contentSeed("a\u2028b\u2029c")},
		{ID: "struct-embedded", Group: "structs", Doc: "embedded struct and embedded pointer to an exported struct", New: func() any {
			return &embedded{embedBase{7}, &EmbedExtra{"x"}, "n"}
		}},
		{ID: "struct-anonymous", Group: "structs", Doc: "field of an anonymous struct type", New: func() any {
			v := &anonymous{}
			v.P.A, v.P.B = 1, "b"
			return v
		}},
		{ID: "struct-unexported", Group: "structs", Doc: "unexported field set to 2 (codecs skip it: changed is the rule)", New: func() any { return &unexported{1, 2} }},
		{ID: "omitempty-empty", Group: "structs", Doc: "omitempty on an empty, non-nil slice and map", New: func() any {
			return &omitEmpty{[]int{}, map[string]int{}}
		}},
		{ID: "omitempty-pointer", Group: "structs", Doc: "omitempty on pointers to \"\" and 0 (not nil, so not empty to encoding/json)", New: func() any {
			s, i := "", 0
			return &omitEmptyPtr{&s, &i}
		}},
		{ID: "any-int", Group: "interfaces", Doc: "interface field holding int64(2^53+1)", New: func() any { return &anyValue{int64(1<<53 + 1)} }},
		{ID: "any-struct", Group: "interfaces", Doc: "interface field holding a struct{X, Y int}", New: func() any { return &anyValue{point{1, 2}} }},
		{ID: "map-int-keys", Group: "maps", Doc: "map[int]string with keys -1 and 2^40", New: func() any { return &intKeys{map[int]string{-1: "a", 1 << 40: "b"}} }},
		{ID: "map-struct-keys", Group: "maps", Doc: "map with struct{X, Y int} keys", New: func() any { return &structKeys{map[point]string{{1, 2}: "a"}} }},
		{ID: "pointer-zero", Group: "pointers", Doc: "pointers to 0, \"\" and false", New: func() any {
			i, s, b := 0, "", false
			return &zeroPtrs{&i, &s, &b}
		}},
		{ID: "deep-nesting", Group: "depth", Doc: fmt.Sprintf("linked list %d structs deep", DeepLevels), New: func() any { return deepList(DeepLevels) },
			Compare: compareDeep, Isolate: true},
		{ID: "cycle", Group: "depth", Doc: "struct whose pointer field points at itself (an error is right)", New: func() any {
			n := &Nested{}
			n.Next = n
			return n
		}, Compare: compareCycle, Isolate: true, WantError: true},
	}
}

// The time probes' values.
func nanosTime() time.Time { return time.Date(2026, 11, 23, 9, 30, 15, 123456789, time.UTC) }
func zoneTime() time.Time  { return time.Date(2026, 7, 4, 12, 0, 0, 0, newYork()) }
func offsetTime() time.Time {
	return time.Date(2026, 7, 4, 12, 0, 0, 0, time.FixedZone("", 5*3600+30*60))
}
func year10000() time.Time { return time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }
func yearNegative() time.Time {
	return time.Date(-1, 6, 1, 0, 0, 0, 0, time.UTC)
}

// newYork returns America/New_York, or a fixed -05:00 zone of the same name
// if the zone cannot be loaded; time/tzdata embeds the database, so that
// is only a safety net.
func newYork() *time.Location {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		return time.FixedZone("America/New_York", -5*3600)
	}
	return loc
}

func deepList(n int) *Nested {
	var head *Nested
	for range n {
		head = &Nested{Next: head}
	}
	return head
}

// compareDeep walks both lists without recursion (fidelity.Diff stops at
// 1000 levels).
func compareDeep(want, got any) error {
	w, g := want.(*Nested), got.(*Nested)
	depth := 0
	for w != nil && g != nil {
		w, g, depth = w.Next, g.Next, depth+1
	}
	if w != nil || g != nil {
		n := depth
		for ; w != nil; w = w.Next {
			n++
		}
		m := depth
		for ; g != nil; g = g.Next {
			m++
		}
		return &fidelity.Mismatch{Path: ".Next…", Want: fmt.Sprintf("%d levels", n), Got: fmt.Sprintf("%d levels", m)}
	}
	return nil
}

// compareCycle says whether got is a cycle of one node.
func compareCycle(_, got any) error {
	g := got.(*Nested)
	if g != nil && g.Next == g {
		return nil
	}
	levels := 0
	for ; g != nil && levels <= DeepLevels; g = g.Next {
		levels++
	}
	return &fidelity.Mismatch{Path: ".Next", Want: "the value itself", Got: fmt.Sprintf("a list %d levels deep", levels)}
}

// htmlNote says whether a JSON codec wrote <, > and & as they are.
func htmlNote(info codec.Info, data []byte) string {
	if info.Format != "JSON" {
		return ""
	}
	if bytes.ContainsAny(data, "<>&") {
		return "wire: < > & written raw"
	}
	return `wire: < > & escaped (\u003c ...)`
}

// separatorNote says whether a JSON codec wrote U+2028 and U+2029 as they are.
func separatorNote(info codec.Info, data []byte) string {
	if info.Format != "JSON" {
		return ""
	}
	if bytes.Contains(data, []byte("\u2028")) || bytes.Contains(data, []byte("\u2029")) {
		return "wire: U+2028/U+2029 written raw"
	}
	return `wire: U+2028/U+2029 escaped (\u2028)`
}
