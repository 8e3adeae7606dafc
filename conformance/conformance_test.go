package conformance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	cborcodec "github.com/serbench/serbench/codec/cbor"
)

// rowFor runs one suite against one codec of codec/all and returns its row.
func rowFor(t *testing.T, suite, id string) Row {
	t.Helper()
	rows, err := Run(context.Background(), all.Registry().All(), Options{Suites: []string{suite}, Codecs: []string{id}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 {
		t.Fatalf("%s × %s: %d rows, want 1", suite, id, len(rows))
	}
	return rows[0]
}

func check(t *testing.T, r Row, name string) Check {
	t.Helper()
	for _, c := range r.Checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("%s × %s: no check %q in %v", r.Suite, r.Codec, name, r.Checks)
	return Check{}
}

func hasCase(cases []Case, name string) bool {
	return slices.ContainsFunc(cases, func(c Case) bool { return strings.HasPrefix(c.Name, name) })
}

func TestJSONKnownFiles(t *testing.T) {
	r := rowFor(t, SuiteJSON, "encoding/json")
	// The harness read every file and sorted them by prefix.
	for name, total := range map[string]int{"y accepted": 95, "n rejected": 188, "i accepted": 35} {
		if c := check(t, r, name); c.Total != total {
			t.Errorf("%s: total %d, want %d", name, c.Total, total)
		}
	}
	// y_array_empty.json is "[]"; n_array_extra_comma.json is `["",]`:
	// encoding/json accepts the first and rejects the second, so neither
	// may be a miss. n_ files that pass leave no trace, y_ ones neither.
	for _, name := range []string{"y_array_empty.json", "n_array_extra_comma.json"} {
		if hasCase(r.Misses, name) {
			t.Errorf("%s is a miss for encoding/json: %v", name, r.Misses)
		}
	}
	// i_ files are outcomes, every one of them listed.
	if len(r.Outcomes) != 35 || !hasCase(r.Outcomes, "i_number_huge_exp.json") {
		t.Errorf("outcomes: got %d, want the 35 i_ files", len(r.Outcomes))
	}
}

// fakeJSON is a JSON codec whose Unmarshal is f.
func fakeJSON(id string, f func([]byte) error) codec.Codec {
	return codec.Funcs{
		Meta:      codec.Info{ID: id, Format: "JSON"},
		Marshal:   func(any) ([]byte, error) { return nil, errors.New("unused") },
		Unmarshal: func(data []byte, _ any) error { return f(data) },
	}
}

func TestJSONJudging(t *testing.T) {
	acceptAll := fakeJSON("accept-all", func([]byte) error { return nil })
	panics := fakeJSON("panics", func([]byte) error { panic("boom") })
	rows, err := Run(context.Background(), []codec.Codec{acceptAll, panics}, Options{Suites: []string{SuiteJSON}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	acc, pan := rows[0], rows[1]
	if y, n := check(t, acc, "y accepted"), check(t, acc, "n rejected"); y.Passed != 95 || n.Passed != 0 || len(acc.Misses) != 188 {
		t.Errorf("accept-all: y %d/95 n %d/188 and %d misses, want y 95, n 0, 188 misses", y.Passed, n.Passed, len(acc.Misses))
	}
	if p, total := pan.Passed(); p != 0 || total != 283 {
		t.Errorf("panics: passed %d/%d, want 0/283 (a panic rejects nothing)", p, total)
	}
	if got := pan.Panics(); got != 318 {
		t.Errorf("panics: %d cases marked as panics, want 318", got)
	}
	if m := pan.Misses[0]; !m.Panic || !strings.Contains(m.Detail, "boom") {
		t.Errorf("panic miss %+v: want Panic and the panic value in Detail", m)
	}
}

func TestRunRejectsUnknownIDs(t *testing.T) {
	for _, opts := range []Options{{Suites: []string{"nope"}}, {Codecs: []string{"nope"}}} {
		if _, err := Run(context.Background(), all.Registry().All(), opts); err == nil || !strings.Contains(err.Error(), `"nope"`) {
			t.Errorf("%+v: error %v, want one naming \"nope\"", opts, err)
		}
	}
}

func TestCBORKnownVectors(t *testing.T) {
	cases, err := loadCBORCases()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 1381 {
		t.Errorf("%d CBOR tests, want 1,381", len(cases))
	}
	r := rowFor(t, SuiteCBOR, "cbor")
	// The harness judged every test that has encoded bytes once.
	dec, bad := check(t, r, "valid decoded"), check(t, r, "invalid rejected")
	unchecked := 0
	for _, c := range cases {
		if c.encoded == nil {
			unchecked++
		}
	}
	if dec.Total+bad.Total+unchecked != len(cases) {
		t.Errorf("decoded %d + rejected %d + unchecked %d != %d tests", dec.Total, bad.Total, unchecked, len(cases))
	}
	// Appendix A: 0x00 is 0, and the bignum 2^64 (c2 49 01 00…) decodes to
	// 18446744073709551616 and re-encodes to the same bytes.
	for _, name := range []string{"rfc8949-appendixA/mt0#0 ", "rfc8949-appendixA/mt6#"} {
		if !slices.ContainsFunc(cases, func(c cborCase) bool { return strings.HasPrefix(c.name, name) }) {
			t.Errorf("no vector %q", name)
		}
	}
	for _, c := range cases {
		if string(c.encoded) == "\xc2\x49\x01\x00\x00\x00\x00\x00\x00\x00\x00" {
			if got := c.decoded.diag(); got != "18446744073709551616" {
				t.Errorf("2^64 bignum: expected value read as %s", got)
			}
			if hasCase(r.Misses, c.name) {
				t.Errorf("2^64 bignum is a miss: %v", r.Misses)
			}
		}
	}
	// "Missing the next byte for mt0 ai 24" (0x18) must fail and does.
	if hasCase(r.Misses, "rfc8949/bad#0 ") {
		t.Errorf("0x18 accepted: %v", r.Misses)
	}
	// The suite runs the cbor row's own decoder: its nesting limit, not the
	// library's default of 32, stops the deeply nested vectors, and its
	// DefaultMapType (string keys) refuses a map with integer keys.
	for name, want := range map[string]string{
		"rfc8949/good#84 ":                fmt.Sprintf("max nested level %d", cborcodec.MaxNestedLevels),
		"rfc8949-appendixA/mt5#1 ":        "into Go value of type string",
		"rfc8949-appendixA/mt5#0 ":        "",
		"rfc8949-appendixA/streaming#10 ": "",
	} {
		i := slices.IndexFunc(r.Misses, func(c Case) bool { return strings.HasPrefix(c.Name, name) })
		switch {
		case want == "" && i >= 0:
			t.Errorf("%s is a miss: %+v", name, r.Misses[i])
		case want != "" && (i < 0 || !strings.Contains(r.Misses[i].Detail, want)):
			t.Errorf("%s: want a miss saying %q, misses %+v", name, want, r.Misses)
		}
	}
	if !strings.Contains(r.Method, "the cbor row's DecOptions") {
		t.Errorf("method %q does not say it runs the cbor row's options", r.Method)
	}
}

func TestMsgpackKnownCases(t *testing.T) {
	cases, err := loadMsgpackCases()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		n += len(c.encodings)
	}
	if len(cases) != 85 || n != 233 {
		t.Errorf("%d values with %d encodings, want 85 and 233", len(cases), n)
	}
	r := rowFor(t, SuiteMsgpack, "msgpack")
	if c := check(t, r, "encodings decoded to the value"); c.Total != 233 {
		t.Errorf("decode total %d, want 233", c.Total)
	}
	// {"a": 1} in each of its three listed encodings decodes to its value.
	if hasCase(r.Misses, "41.map.yaml#1 ") {
		t.Errorf("41.map.yaml#1 is a miss: %v", r.Misses)
	}
	// A value of another kind is not equal.
	if msgpackEqual("string", "a", "", []byte("a")) {
		t.Error(`[]byte("a") judged equal to the string "a"`)
	}
}

// The untyped drivers come from the codecs' adapters (codec.UntypedDriver):
// msgp and easyjson drive their libraries directly, ffjson states why it
// has none, and a codec without one falls back to Bind(new(any)).
func TestAdapterDrivers(t *testing.T) {
	for _, tc := range []struct{ suite, id, method, na string }{
		{SuiteMsgpack, "msgp", "msgp.ReadIntfBytes", ""},
		{SuiteMsgpack, "msgpack", "Unmarshal into *any", ""},
		{SuiteMsgpack, "shamaton-msgpack", "", "no untyped driver"},
		{SuiteJSON, "easyjson", "jlexer.Lexer.Interface", ""},
		{SuiteJSON, "ffjson", "", "hands any other type"},
		{SuiteJSON, "encoding/json", "Unmarshal into *any", ""},
	} {
		r := rowFor(t, tc.suite, tc.id)
		if !strings.Contains(r.Method, tc.method) || !strings.Contains(r.NA, tc.na) || (tc.na == "") != (r.NA == "") {
			t.Errorf("%s × %s: method %q, n/a %q; want %q, %q", tc.suite, tc.id, r.Method, r.NA, tc.method, tc.na)
		}
	}
}
