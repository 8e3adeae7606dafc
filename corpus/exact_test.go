package corpus

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/scenario"
)

// TestExactNumber checks which Go type holds each kind of JSON number.
func TestExactNumber(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tests := []struct {
		text string
		want any
	}{
		{"0", int64(0)},
		{"-0", negZero},
		{"-0.0", negZero},
		{"1", int64(1)},
		{"-9223372036854775808", int64(math.MinInt64)},
		{"9007199254740993", int64(9007199254740993)},
		{"18446744073709551615", uint64(math.MaxUint64)},
		{"1180591620717411303424", float64(1 << 70)},                          // 2^70: a float64 holds it exactly
		{"100000000000000000000000", json.Number("100000000000000000000000")}, // 1e23 as an integer: the nearest float64 is 99999999999999991611392
		{"1e23", 1e23}, // the same number with an exponent: the float64 that prints as 1e23
		{"1.0", 1.0},
		{"0.1", 0.1},
		{"2.5e-3", 0.0025},
		{"-65.613616999999977", -65.613616999999977},
		{"1.00000000000000000001", json.Number("1.00000000000000000001")},
		{"9007199254740993.0", json.Number("9007199254740993.0")},
		{"1e400", json.Number("1e400")},
		{"1e-400", json.Number("1e-400")},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got := exactNumber(tt.text)
			if reflect.TypeOf(got) != reflect.TypeOf(tt.want) || !numbersEqual(tt.want, got) {
				t.Errorf("exactNumber(%s) = %T %v, want %T %v", tt.text, got, got, tt.want, tt.want)
			}
		})
	}
}

// TestSourceLosses checks the source-fidelity finding of small documents,
// and that it tells the truth about encoding/json: its decoding into any
// differs from the exact value exactly when a number or UTF-8 loss is
// reported (duplicate keys and lone surrogates do not show in values: the
// exact value keeps the last key and U+FFFD as encoding/json does).
func TestSourceLosses(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []scenario.SourceLoss
	}{
		{"clean", `{"a": [1, 2.5, "é", null, true, -0, 1180591620717411303424]}`, nil},
		{"big ids", `{"users": [{"id": 12}, {"id": 1603825917466333185}, {"id": 9007199254740993}]}`, []scenario.SourceLoss{
			{Kind: LossBigInteger, Count: 2, Path: `["users"][1]["id"]`, Text: "1603825917466333185", Decoded: "1603825917466333184"},
		}},
		{"exact big float64", `[9007199254740992, 1180591620717411303424]`, nil},
		{"negative zero kept", `{"x": -0, "y": -0.0}`, nil},
		{"too many digits", `[0.1, 1.00000000000000000001]`, []scenario.SourceLoss{
			{Kind: LossDigits, Count: 1, Path: `[1]`, Text: "1.00000000000000000001", Decoded: "1"},
		}},
		{"out of range", `{"big": 1e400}`, []scenario.SourceLoss{
			{Kind: LossRange, Count: 1, Path: `["big"]`, Text: "1e400", Decoded: "error: json: cannot unmarshal number 1e400 into Go value of type float64"},
		}},
		{"duplicate keys", `{"id": 1, "name": "a", "id": 2, "x": {"k": [1], "k": [2, 3]}}`, []scenario.SourceLoss{
			{Kind: LossDuplicate, Count: 2, Path: `["id"]`, Text: `"id": 2`, Decoded: "2 (the last value; 1 dropped)"},
		}},
		{"invalid UTF-8", "{\"name\": \"caf\xe9\", \"ok\": \"café\", \"k\xff\": 1}", []scenario.SourceLoss{
			{Kind: LossUTF8, Count: 2, Path: `["name"]`, Text: `"caf\xe9"`, Decoded: "\"caf\ufffd\""},
		}},
		{"lone surrogate", `["\ud83d\ude00 pair", "lone \ud800 high", "\udc00"]`, []scenario.SourceLoss{
			{Kind: LossSurrogate, Count: 2, Path: `[1]`, Text: `"lone \ud800 high"`, Decoded: "\"lone \ufffd high\""},
		}},
		{"all at once", "[18446744073709551615, 1e999, {\"a\": 1, \"a\": 2}, \"\xff\", \"\\udfff\"]", []scenario.SourceLoss{
			{Kind: LossBigInteger, Count: 1, Path: `[0]`, Text: "18446744073709551615", Decoded: "18446744073709551616"},
			{Kind: LossRange, Count: 1, Path: `[1]`, Text: "1e999", Decoded: "error: json: cannot unmarshal number 1e999 into Go value of type float64"},
			{Kind: LossDuplicate, Count: 1, Path: `[2]["a"]`, Text: `"a": 2`, Decoded: "2 (the last value; 1 dropped)"},
			{Kind: LossUTF8, Count: 1, Path: `[3]`, Text: `"\xff"`, Decoded: "\"\ufffd\""},
			{Kind: LossSurrogate, Count: 1, Path: `[4]`, Text: `"\udfff"`, Decoded: "\"\ufffd\""},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, losses, err := decodeExact([]byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(losses, tt.want) {
				t.Errorf("losses:\n got  %+v\n want %+v", losses, tt.want)
			}
			var std any
			stdErr := json.Unmarshal([]byte(tt.doc), &std)
			valueLoss, rangeLoss := false, false
			for _, l := range losses {
				valueLoss = valueLoss || l.Kind == LossBigInteger || l.Kind == LossDigits || l.Kind == LossUTF8
				rangeLoss = rangeLoss || l.Kind == LossRange
			}
			if (stdErr != nil) != rangeLoss {
				t.Fatalf("encoding/json error %v, range loss reported: %v", stdErr, rangeLoss)
			}
			if stdErr == nil {
				if d := diffExact(&v, &std); (d != nil) != valueLoss {
					t.Errorf("encoding/json into any differs from the exact value: %v; value loss reported: %v", d, valueLoss)
				}
			}
		})
	}
}

// TestExactStrings checks that strings keep what the file holds.
func TestExactStrings(t *testing.T) {
	v, _, err := decodeExact([]byte("[\"caf\xe9\", \"\\u00e9\\n\\\"\\/\\\\\", \"\\ud83d\\ude00\", \"x\\ud800\"]"))
	if err != nil {
		t.Fatal(err)
	}
	want := []any{"caf\xe9", "é\n\"/\\", "😀", "x\ufffd"}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("got %q, want %q", v, want)
	}
}

// TestDiffExact checks the comparison rules of the package doc.
func TestDiffExact(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		got  any
		want string // "" for equal, else the *fidelity.Mismatch's text
	}{
		{"float64 1 is 1", `[1]`, []any{1.0}, ""},
		{"int8 3 is 3", `{"n": 3}`, map[string]any{"n": int8(3)}, ""},
		{"uint64 of a cbor decoder", `[42, -7]`, []any{uint64(42), int64(-7)}, ""},
		{"float64 rounds 2^53+1", `[9007199254740993]`, []any{9007199254740992.0}, "fidelity: [0]: want 9007199254740993, got float64 9007199254740992"},
		{"int64 keeps 2^53+1", `[9007199254740993]`, []any{int64(9007199254740993)}, ""},
		{"float64 exact above 2^53", `[9007199254740994]`, []any{9007199254740994.0}, ""},
		{"uint64 max", `[18446744073709551615]`, []any{uint64(math.MaxUint64)}, ""},
		{"float64 is not uint64 max", `[18446744073709551615]`, []any{float64(math.MaxUint64)}, "fidelity: [0]: want 18446744073709551615, got float64 18446744073709551616"},
		{"0.1", `[0.1]`, []any{0.1}, ""},
		{"0.1 as float32", `[0.1]`, []any{float32(0.1)}, "fidelity: [0]: want 0.1, got float32 0.10000000149011612"},
		{"1.0 as int", `[1.0]`, []any{1}, ""},
		{"-0 kept", `[-0]`, []any{math.Copysign(0, -1)}, ""},
		{"-0 lost", `[-0]`, []any{0.0}, "fidelity: [0]: want -0, got float64 0"},
		{"-0 as an integer", `[-0]`, []any{int64(0)}, "fidelity: [0]: want -0, got int64 0"},
		{"0 turned into -0", `[0]`, []any{math.Copysign(0, -1)}, "fidelity: [0]: want 0, got float64 -0"},
		{"json.Number kept", `[1e400]`, []any{json.Number("1e400")}, ""},
		{"json.Number same value", `[1e400]`, []any{json.Number("10E399")}, ""},
		{"json.Number as string", `[1e400]`, []any{"1e400"}, `fidelity: [0]: want 1e400, got string "1e400"`},
		{"json.Number as float64", `[1.00000000000000000001]`, []any{1.0}, "fidelity: [0]: want 1.00000000000000000001, got float64 1"},
		{"UseNumber decoder", `[0.1, 12]`, []any{json.Number("0.1"), json.Number("12")}, ""},
		{"number as string", `[12]`, []any{"12"}, `fidelity: [0]: want 12, got string "12"`},
		{"invalid UTF-8 replaced", "[\"caf\xe9\"]", []any{"caf\ufffd"}, `fidelity: [0]: want "caf\xe9", got string "caf�"`},
		{"empty array vs nil", `{"a": []}`, map[string]any{"a": []any(nil)}, `fidelity: ["a"]: want empty array, got nil slice (null)`},
		{"array length", `[1, 2]`, []any{1.0}, "fidelity: (root): want array of 2, got array of 1"},
		{"missing key", `{"a": 1, "b": 2}`, map[string]any{"a": 1.0}, `fidelity: ["b"]: want 2, got missing key`},
		{"extra key", `{"a": 1}`, map[string]any{"a": 1.0, "z": true}, `fidelity: ["z"]: want no such key, got true`},
		{"map[any]any", `{"a": {"b": null}}`, map[any]any{"a": map[any]any{"b": nil}}, ""},
		{"null vs value", `[null]`, []any{false}, "fidelity: [0]: want null, got false"},
		{"wrong type", `{"a": true}`, map[string]any{"a": "true"}, `fidelity: ["a"]: want true, got string "true"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, _, err := decodeExact([]byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			err = diffExact(&want, &tt.got)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("got %v, want equal", err)
			case tt.want != "" && err == nil:
				t.Errorf("equal, want %s", tt.want)
			case tt.want != "" && err.Error() != tt.want:
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
			var m *fidelity.Mismatch
			if err != nil && !errors.As(err, &m) {
				t.Errorf("%T is not a *fidelity.Mismatch", err)
			}
		})
	}
}

// TestDecodeExactErrors checks that bad documents name where they fail.
func TestDecodeExactErrors(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"empty", "", "empty file: no JSON value"},
		{"white space only", " \n\t ", "empty file: no JSON value"},
		{"bad character", "{\n  \"a\": 1,\n  \"b\": x\n}", "invalid JSON at byte offset 19 (line 3, column 8)"},
		{"truncated", `{"a": [1, 2`, "invalid JSON at byte offset 11 (line 1, column 12): jsontext: unexpected EOF"},
		{"two values", `{} {}`, "data after the JSON value at byte offset 2 (line 1, column 3)"},
		{"trailing comma", `[1,]`, "invalid JSON at byte offset 2 (line 1, column 3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, losses, err := decodeExact([]byte(tt.doc))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, %v and error %v; want an error containing %q", v, losses, err, tt.want)
			}
		})
	}
}

// FuzzDecodeExact checks decodeExact against encoding/json on any input: no
// panic; it accepts exactly the documents json.Valid accepts; its value
// equals itself; and encoding/json's decoding into any differs from it
// exactly when a number or UTF-8 loss is reported (or fails exactly when a
// range loss is).
func FuzzDecodeExact(f *testing.F) {
	for _, s := range []string{
		`{"id": 1849205512907743233, "n": [1, -0, 0.1, 1e400, 1.00000000000000000001]}`,
		`{"a": 1, "a": {"a": [true, false, null]}}`,
		"[\"caf\xe9\", \"\\ud800\", \"\\ud83d\\ude00\", \"\\u00e9\\n\"]",
		`18446744073709551616`, `-9223372036854775809`, `1180591620717411303424`, `[1e-400, 5e-324, -0.0e5]`,
		``, `{`, `[1,]`, `{} {}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, losses, err := decodeExact(data)
		if (err == nil) != json.Valid(data) {
			t.Fatalf("decodeExact error %v, json.Valid %v", err, json.Valid(data))
		}
		if err != nil {
			return
		}
		if d := diffExact(&v, &v); d != nil {
			t.Fatalf("the value differs from itself: %v", d)
		}
		valueLoss, rangeLoss, duplicate := false, false, false
		for _, l := range losses {
			valueLoss = valueLoss || l.Kind == LossBigInteger || l.Kind == LossDigits || l.Kind == LossUTF8
			rangeLoss = rangeLoss || l.Kind == LossRange
			duplicate = duplicate || l.Kind == LossDuplicate
		}
		var std any
		if err := json.Unmarshal(data, &std); (err != nil) != rangeLoss {
			t.Fatalf("encoding/json error %v, range loss reported: %v", err, rangeLoss)
		} else if err == nil {
			// A value loss is reported where the file holds the value, even
			// when a later duplicate key drops it from the decoded document
			// ({"a": 9100000000000001, "a": []}): with a duplicate, a
			// reported value loss need not show in the value.
			if d := diffExact(&v, &std); d != nil && !valueLoss || d == nil && valueLoss && !duplicate {
				t.Fatalf("encoding/json into any differs: %v; value loss reported: %v (%v)", d, valueLoss, losses)
			}
		}
	})
}
