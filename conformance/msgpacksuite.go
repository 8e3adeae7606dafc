package conformance

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/tinylib/msgp/msgp"

	"github.com/serbench/serbench/codec"
)

// msgpackCase is one value of msgpack-test-suite with its valid encodings.
type msgpackCase struct {
	name      string // "41.map.yaml#1"
	kind      string // nil, bool, binary, number, string, array, map, timestamp, ext
	value     any    // as encoding/json decodes it, numbers as json.Number
	bignum    string // the exact integer, where the suite gives one
	encodings [][]byte
}

func loadMsgpackCases() ([]msgpackCase, error) {
	raw, err := fs.ReadFile(suites, msgpackDoc)
	if err != nil {
		return nil, fmt.Errorf("conformance: msgpack-test-suite: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc map[string][]map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("conformance: msgpack-test-suite: %w", err)
	}
	files := make([]string, 0, len(doc))
	for f := range doc {
		files = append(files, f)
	}
	slices.Sort(files)
	var cases []msgpackCase
	for _, f := range files {
		for i, entry := range doc[f] {
			c := msgpackCase{name: fmt.Sprintf("%s#%d", f, i)}
			for k, v := range entry {
				switch k {
				case "msgpack":
					list, _ := v.([]any)
					for _, e := range list {
						s, _ := e.(string)
						b, err := hex.DecodeString(strings.ReplaceAll(s, "-", ""))
						if err != nil {
							return nil, fmt.Errorf("conformance: msgpack-test-suite: %s: encoding %q: %w", c.name, s, err)
						}
						c.encodings = append(c.encodings, b)
					}
				case "bignum":
					c.bignum, _ = v.(string)
				default:
					c.kind, c.value = k, v
				}
			}
			if c.kind == "" && c.bignum != "" { // integers beyond float64's 2^53 come as "bignum" only
				c.kind, c.value = "number", json.Number(c.bignum)
			}
			if c.kind == "" || len(c.encodings) == 0 {
				return nil, fmt.Errorf("conformance: msgpack-test-suite: %s: no value or no encoding", c.name)
			}
			cases = append(cases, c)
		}
	}
	return cases, nil
}

// msgpackDriver is how the harness decodes and encodes untyped values with
// one MessagePack library. encode is nil for kinds it has no untyped value
// for, with the reason in noEncode.
type msgpackDriver struct {
	method   string
	decode   func([]byte) (any, error)
	encode   func(any) ([]byte, error)
	noEncode map[string]string // kind → why the encoder cannot be checked
	ext      func(typ int8, data []byte) any
}

func msgpackDriverFor(c codec.Codec) (msgpackDriver, string) {
	u, ok := untyped(c)
	if !ok || u.Decode == nil {
		return msgpackDriver{}, u.NA
	}
	return msgpackDriver{method: u.Method, decode: u.Decode, encode: u.Encode, noEncode: u.NoEncode, ext: u.Ext}, ""
}

// untyped returns the untyped driver c's adapter states (codec.UntypedDriver).
func untyped(c codec.Codec) (codec.Untyped, bool) {
	if d, ok := c.(codec.UntypedDriver); ok {
		return d.Untyped()
	}
	return codec.Untyped{}, false
}

// runMsgpack runs msgpack-test-suite against the MessagePack codecs of cs.
func runMsgpack(ctx context.Context, cs []codec.Codec) ([]Row, error) {
	cases, err := loadMsgpackCases()
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, c := range cs {
		if c.Info().Format != "MessagePack" {
			continue
		}
		row := Row{Suite: SuiteMsgpack, Codec: c.Info().ID}
		d, na := msgpackDriverFor(c)
		if d.decode == nil {
			if na == "" {
				na = "the harness has no untyped driver for this codec"
			}
			row.NA = na
			rows = append(rows, row)
			continue
		}
		row.Method = d.method
		dec := Check{Name: "encodings decoded to the value"}
		enc := Check{Name: "encoder output listed"}
		skipped := map[string]int{}
		for _, mc := range cases {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("conformance: %w", err)
			}
			for _, e := range mc.encodings {
				dec.Total++
				var got any
				err := guard(func() (err error) { got, err = d.decode(e); return err })
				name := fmt.Sprintf("%s %x", mc.name, e)
				switch {
				case err != nil:
					row.Misses = append(row.Misses, Case{Name: name, Check: dec.Name, Detail: "error: " + short(err.Error(), 160), Panic: isPanic(err)})
				case !msgpackEqual(mc.kind, mc.value, mc.bignum, got):
					row.Misses = append(row.Misses, Case{Name: name, Check: dec.Name, Detail: fmt.Sprintf("want %s, got %#v", msgpackWant(mc), got)})
				default:
					dec.Passed++
				}
			}
			if why, ok := d.noEncode[mc.kind]; ok {
				skipped[why]++
				continue
			}
			enc.Total++
			v, err := msgpackValue(mc, d.ext)
			if err != nil {
				return nil, fmt.Errorf("conformance: msgpack-test-suite: %s: %w", mc.name, err)
			}
			var out []byte
			err = guard(func() (err error) { out, err = d.encode(v); return err })
			switch {
			case err != nil:
				row.Misses = append(row.Misses, Case{Name: mc.name, Check: enc.Name, Detail: "error: " + short(err.Error(), 160), Panic: isPanic(err)})
			case !slices.ContainsFunc(mc.encodings, func(e []byte) bool { return bytes.Equal(e, out) }):
				row.Misses = append(row.Misses, Case{Name: mc.name, Check: enc.Name, Detail: fmt.Sprintf("%s encoded as %x, not listed", msgpackWant(mc), out)})
			default:
				enc.Passed++
			}
		}
		for _, why := range slices.Sorted(maps.Keys(skipped)) {
			row.Method += fmt.Sprintf("; encoder not checked on %d values: %s", skipped[why], why)
		}
		row.Checks = []Check{dec, enc}
		rows = append(rows, row)
	}
	return rows, nil
}

func msgpackWant(mc msgpackCase) string {
	b, _ := json.Marshal(mc.value)
	return mc.kind + " " + string(b)
}

// msgpackValue builds the Go value the suite's value stands for: integers
// as int (uint64 above MaxInt64), other numbers as float64, binary as
// []byte, timestamps as time.Time in UTC, ext through ext (nil: none).
func msgpackValue(mc msgpackCase, ext func(int8, []byte) any) (any, error) {
	switch mc.kind {
	case "binary":
		return hexValue(mc.value)
	case "timestamp":
		sec, nsec, err := pair(mc.value)
		if err != nil {
			return nil, err
		}
		return time.Unix(sec, nsec).UTC(), nil
	case "ext":
		l, _ := mc.value.([]any)
		if len(l) != 2 || ext == nil {
			return nil, fmt.Errorf("ext value %v: want [type, hex]", mc.value)
		}
		t, err := l[0].(json.Number).Int64()
		if err != nil {
			return nil, err
		}
		data, err := hexValue(l[1])
		if err != nil {
			return nil, err
		}
		return ext(int8(t), data), nil
	case "number":
		text := mc.value.(json.Number).String()
		if mc.bignum != "" {
			text = mc.bignum
		}
		return numberValue(text), nil
	}
	return plainValue(mc.value), nil
}

// plainValue turns a JSON value (numbers as json.Number) into the Go value
// an untyped MessagePack decoder would give.
func plainValue(v any) any {
	switch v := v.(type) {
	case json.Number:
		return numberValue(v.String())
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plainValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = plainValue(e)
		}
		return out
	}
	return v
}

func numberValue(text string) any {
	if i, ok := new(big.Int).SetString(text, 10); ok {
		if x := i.Int64(); i.IsInt64() && int64(int(x)) == x {
			return int(x) // int, as Go code writes an integer literal into an `any`
		}
		if i.IsUint64() {
			return i.Uint64()
		}
	}
	f, _, err := big.ParseFloat(text, 10, 64, big.ToNearestEven)
	if err != nil {
		return text
	}
	x, _ := f.Float64()
	return x
}

func hexValue(v any) ([]byte, error) {
	s, _ := v.(string)
	return hex.DecodeString(strings.ReplaceAll(s, "-", ""))
}

func pair(v any) (int64, int64, error) {
	l, _ := v.([]any)
	if len(l) != 2 {
		return 0, 0, fmt.Errorf("want a pair, got %v", v)
	}
	a, err := l[0].(json.Number).Int64()
	if err != nil {
		return 0, 0, err
	}
	b, err := l[1].(json.Number).Int64()
	return a, b, err
}

// msgpackEqual reports whether got, as a library decoded it untyped, is the
// suite's value of the given kind.
func msgpackEqual(kind string, want any, bignum string, got any) bool {
	switch kind {
	case "nil":
		return got == nil
	case "binary":
		b, err := hexValue(want)
		g, ok := got.([]byte)
		return err == nil && ok && bytes.Equal(b, g)
	case "timestamp":
		sec, nsec, err := pair(want)
		t, ok := got.(time.Time)
		return err == nil && ok && t.Unix() == sec && int64(t.Nanosecond()) == nsec
	case "ext":
		l, _ := want.([]any)
		x, ok := got.(*msgp.RawExtension)
		if len(l) != 2 || !ok {
			return false
		}
		typ, err := l[0].(json.Number).Int64()
		data, herr := hexValue(l[1])
		return err == nil && herr == nil && int64(x.Type) == typ && bytes.Equal(x.Data, data)
	case "number":
		text := want.(json.Number).String()
		if bignum != "" {
			text = bignum
		}
		return numberEqual(text, got)
	}
	return valueEqual(want, got)
}

// valueEqual compares a JSON value (numbers as json.Number) with a decoded
// one, numbers by value.
func valueEqual(want, got any) bool {
	switch w := want.(type) {
	case json.Number:
		return numberEqual(w.String(), got)
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !valueEqual(w[i], g[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		g := reflect.ValueOf(got)
		if g.Kind() != reflect.Map || g.Type().Key().Kind() != reflect.String || g.Len() != len(w) {
			return false
		}
		for k, v := range w {
			e := g.MapIndex(reflect.ValueOf(k).Convert(g.Type().Key()))
			if !e.IsValid() || !valueEqual(v, e.Interface()) {
				return false
			}
		}
		return true
	}
	return want == got
}

// numberEqual reports whether got, any Go integer or float, equals the
// decimal number text exactly.
func numberEqual(text string, got any) bool {
	want, _, err := big.ParseFloat(text, 10, 256, big.ToNearestEven)
	if err != nil {
		return false
	}
	var g *big.Float
	switch v := reflect.ValueOf(got); v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		g = new(big.Float).SetInt64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		g = new(big.Float).SetUint64(v.Uint())
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); f != f {
			return false
		}
		g = big.NewFloat(v.Float())
	default:
		return false
	}
	return g.Cmp(want) == 0
}
