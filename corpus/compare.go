package corpus

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/serbench/serbench/fidelity"
)

// maxCompareDepth bounds the recursion of diffExact: jsontext refuses
// documents nested deeper than 10000 levels, so a decoded value deeper than
// this is not the document's.
const maxCompareDepth = 10001

// diffExact reports whether got, what a codec decoded from a user's
// document, keeps want, the document's exact value (decodeExact): nil if it
// does, else a *fidelity.Mismatch naming the first difference, visiting
// object members in sorted key order. The rules are the package doc's.
func diffExact(want, got any) error {
	if p, ok := want.(*any); ok && p != nil {
		want = *p
	}
	if p, ok := got.(*any); ok {
		if p == nil {
			return &fidelity.Mismatch{Want: showWant(want), Got: "nil pointer"}
		}
		got = *p
	}
	c := comparer{}
	if m := c.diff(want, got, 0); m != nil {
		return m
	}
	return nil
}

type comparer struct {
	path []any
}

func (c *comparer) mismatch(want, got string) *fidelity.Mismatch {
	return &fidelity.Mismatch{Path: pathString(c.path), Want: want, Got: got}
}

func (c *comparer) diff(want, got any, depth int) *fidelity.Mismatch {
	if depth > maxCompareDepth {
		return c.mismatch("value nested deeper than 10001 levels", "not compared")
	}
	switch w := want.(type) {
	case nil:
		if got != nil {
			return c.mismatch("null", showGot(got))
		}
		return nil
	case bool:
		if g, ok := got.(bool); !ok || g != w {
			return c.mismatch(showWant(w), showGot(got))
		}
		return nil
	case string:
		if g, ok := got.(string); !ok || g != w {
			return c.mismatch(showWant(w), showGot(got))
		}
		return nil
	case []any:
		g, ok := got.([]any)
		switch {
		case !ok:
			return c.mismatch(showWant(w), showGot(got))
		case g == nil:
			return c.mismatch(showWant(w), "nil slice (null)")
		case len(g) != len(w):
			return c.mismatch(fmt.Sprintf("array of %d", len(w)), fmt.Sprintf("array of %d", len(g)))
		}
		for i := range w {
			c.path = append(c.path, i)
			if m := c.diff(w[i], g[i], depth+1); m != nil {
				return m
			}
			c.path = c.path[:len(c.path)-1]
		}
		return nil
	case map[string]any:
		g, ok := stringMap(got)
		if !ok {
			return c.mismatch(showWant(w), showGot(got))
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			c.path = append(c.path, k)
			gv, ok := g[k]
			if !ok {
				return c.mismatch(showWant(w[k]), "missing key")
			}
			if m := c.diff(w[k], gv, depth+1); m != nil {
				return m
			}
			c.path = c.path[:len(c.path)-1]
		}
		if len(g) != len(w) {
			extra := make([]string, 0, len(g))
			for k := range g {
				if _, ok := w[k]; !ok {
					extra = append(extra, k)
				}
			}
			slices.Sort(extra)
			c.path = append(c.path, extra[0])
			return c.mismatch("no such key", showGot(g[extra[0]]))
		}
		return nil
	}
	wn, ok := toNumber(want)
	if !ok {
		return c.mismatch(fmt.Sprintf("a value of type %T, which a document's exact value never holds", want), "not compared")
	}
	if gn, ok := toNumber(got); !ok || !wn.equal(gn) {
		return c.mismatch(showWant(want), showGot(got))
	}
	return nil
}

// stringMap returns got as a map[string]any; a map[any]any whose keys are
// all strings (as some binary decoders give) is converted.
func stringMap(got any) (map[string]any, bool) {
	switch g := got.(type) {
	case map[string]any:
		return g, g != nil
	case map[any]any:
		m := make(map[string]any, len(g))
		for k, v := range g {
			s, ok := k.(string)
			if !ok {
				return nil, false
			}
			m[s] = v
		}
		return m, true
	}
	return nil, false
}

// number is a decoded number: an integer as sign and magnitude, a float,
// or the text of a json.Number.
type number struct {
	kind byte // 'i', 'f' or 'd'
	neg  bool
	mag  uint64
	f    float64
	text string
}

// toNumber converts any Go number, or a json.Number, to a number.
func toNumber(x any) (number, bool) {
	if n, ok := x.(json.Number); ok {
		return number{kind: 'd', text: string(n)}, true
	}
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i := v.Int()
		if i < 0 {
			return number{kind: 'i', neg: true, mag: uint64(-(i + 1)) + 1}, true
		}
		return number{kind: 'i', mag: uint64(i)}, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return number{kind: 'i', mag: v.Uint()}, true
	case reflect.Float32, reflect.Float64:
		return number{kind: 'f', f: v.Float()}, true
	}
	return number{}, false
}

// numbersEqual reports whether got, a decoded value, is the number want,
// part of a document's exact value, holds (see the package doc).
func numbersEqual(want, got any) bool {
	w, okw := toNumber(want)
	g, okg := toNumber(got)
	return okw && okg && w.equal(g)
}

// equal reports whether got denotes the same real number as want, zeros
// counting as equal only with the same sign (integers are +0). A json.Number
// want, which no float64 holds, equals no float64.
func (want number) equal(got number) bool {
	switch string([]byte{want.kind, got.kind}) {
	case "ff":
		return want.f == got.f && math.Signbit(want.f) == math.Signbit(got.f)
	case "ii":
		return want.neg == got.neg && want.mag == got.mag
	case "if":
		return intEqualsFloat(want, got.f)
	case "fi":
		return intEqualsFloat(got, want.f)
	case "dd", "di", "id":
		x, okx := want.decimal()
		y, oky := got.decimal()
		return okx && oky && x.equal(y) || want.kind == 'd' && got.kind == 'd' && want.text == got.text
	case "fd":
		f, err := strconv.ParseFloat(got.text, 64)
		return err == nil && f == want.f && math.Signbit(f) == math.Signbit(want.f)
	}
	return false // "df": a float64 cannot be a number no float64 holds
}

// decimal returns an integer or a json.Number as a decimal.
func (n number) decimal() (decimal, bool) {
	if n.kind == 'd' {
		return parseDecimal(n.text)
	}
	s := strconv.FormatUint(n.mag, 10)
	if n.neg {
		s = "-" + s
	}
	return parseDecimal(s)
}

// intEqualsFloat reports whether integer i equals f exactly; a negative
// zero f equals no integer.
func intEqualsFloat(i number, f float64) bool {
	if f == 0 {
		return !math.Signbit(f) && i.mag == 0
	}
	if f != math.Trunc(f) || math.Abs(f) >= 1<<64 || (f < 0) != i.neg {
		return false
	}
	return uint64(math.Abs(f)) == i.mag
}

// showWant writes a value of the document as JSON would.
func showWant(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return cut(strconv.Quote(v))
	case []any:
		if len(v) == 0 {
			return "empty array"
		}
		return fmt.Sprintf("array of %d", len(v))
	case map[string]any:
		return fmt.Sprintf("object of %d keys", len(v))
	case float64:
		return formatFloat(v)
	}
	return cut(fmt.Sprint(v))
}

// showGot writes a decoded value with its Go type where that helps:
// `float64 1190345212345678800`, `string "x"`.
func showGot(v any) string {
	switch g := v.(type) {
	case nil, []any, map[string]any, bool:
		return showWant(v)
	case json.Number:
		return "json.Number " + cut(string(g))
	case string:
		return "string " + showWant(g)
	case float64:
		return "float64 " + formatFloat(g)
	case float32:
		return "float32 " + formatFloat(float64(g))
	}
	if _, ok := toNumber(v); ok {
		return fmt.Sprintf("%T %v", v, v)
	}
	return cut(fmt.Sprintf("%T %v", v, v))
}

// formatFloat writes f briefly: an integral f below 1e21 in full and
// exactly (1849205512907743232, not encoding/json's 1849205512907743200),
// -0 as -0, others as strconv's shortest form (0.1, 1e+21).
func formatFloat(f float64) string {
	if a := math.Abs(f); a < 1e21 && f == math.Trunc(f) {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
