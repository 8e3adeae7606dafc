package derive_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hamba/avro/v2"

	"github.com/serbench/serbench/derive"
)

type hintRow struct {
	Status string `json:"status"`
}

type hintRows struct {
	Rows []hintRow `json:"rows"`
}

type hintTime struct {
	At string `json:"at"`
}

type hintInt struct {
	N int64 `json:"n"`
}

type hintInts struct {
	Rows []hintInt `json:"rows"`
}

type hintFloatRow struct {
	N float64 `json:"n"`
}

type hintFloats struct {
	Rows []hintFloatRow `json:"rows"`
}

type hintTags struct {
	Tags []string `json:"tags"`
}

// The sizes are worked out from the protobuf wire format
// (protobuf.dev/programming-guides/encoding): a tag byte, then a varint,
// a length and bytes, or 8 bytes for a double.
func TestFindHintsSizes(t *testing.T) {
	rows := func(s ...string) *hintRows {
		r := &hintRows{}
		for _, x := range s {
			r.Rows = append(r.Rows, hintRow{x})
		}
		return r
	}
	for _, tc := range []struct {
		name          string
		sample        any
		path          string
		kind          derive.HintKind
		seen, pb, avr string
		before, after int
	}{
		// Each row: tag, length, 4 bytes in a row message of 6 bytes,
		// itself tag, length, 6 = 8 bytes; as an enum (open=1, paid=2),
		// tag and value: 2 bytes in 4.
		{"enum", rows("paid", "open", "paid", "open"), ".Rows[].Status", derive.HintEnum,
			"2 distinct values in 4", "enum Status", "enum", 4 * 8, 4 * 4},
		// An empty value is the enum's zero, absent on the wire as the
		// empty string is: 3 rows of 8 bytes and one of 2 (tag, length 0).
		{"enum with empty", rows("paid", "", "paid", "paid"), ".Rows[].Status", derive.HintEnum,
			"1 distinct value in 4", "enum Status", "enum", 3*8 + 2, 3*4 + 2},
		// 20 characters: tag, length, 20; a Timestamp with 1795426212
		// seconds (a 5-byte varint) and no nanoseconds: tag, length, 6.
		{"timestamp", &hintTime{"2026-11-23T09:30:12Z"}, ".At", derive.HintTimestamp,
			"1 non-empty value, all RFC 3339", "google.protobuf.Timestamp", "long timestamp-micros", 22, 8},
		// Nanoseconds add tag and a 4-byte varint (123000000 < 2^28).
		{"timestamp with offset", &hintTime{"2026-11-23T10:30:12.123+01:00"}, ".At", derive.HintTimestamp,
			"1 non-empty value, all RFC 3339 (offsets other than Z: the zone would be lost)", "google.protobuf.Timestamp", "long timestamp-micros", 31, 13},
		// int64 and int32 are the same varint for 1200 and 7: rows of
		// 3 and 2 bytes, 5 and 4 with their tag and length, either way.
		{"int16", &hintInts{[]hintInt{{1200}, {7}}}, ".Rows[].N", derive.HintNarrowInt,
			"2 values, all in [7, 1200]: fit int16", "int32", "int", 9, 9},
		// A negative int64 is a 10-byte varint, a row of 11 (13 with its
		// tag and length); zigzag -5 is 9, one byte: rows of 4.
		{"negative int8", &hintInts{[]hintInt{{-5}, {-5}}}, ".Rows[].N", derive.HintNarrowInt,
			"2 values, all in [-5, -5]: fit int8", "sint32", "int", 26, 8},
		// double: tag and 8 bytes in a row of 9, 11 with its tag and
		// length; int32: tag and one byte, 4 with the row's.
		{"integral float", &hintFloats{[]hintFloatRow{{3}, {7}}}, ".Rows[].N", derive.HintIntegralFloat,
			"2 values, all integers in [3, 7]", "int32", "int", 2 * 11, 2 * 4},
		// A packed repeated enum: tag, length, 4 one-byte values.
		{"repeated enum", &hintTags{[]string{"eu", "us", "eu", "us"}}, ".Tags", derive.HintEnum,
			"2 distinct values in 4", "repeated enum Tags", "array of enum", 4 * 4, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs, err := derive.FindHints(tc.sample)
			if err != nil {
				t.Fatal(err)
			}
			if len(hs) != 1 {
				t.Fatalf("%d hints, want 1:\n%s", len(hs), hs)
			}
			h := hs[0]
			if h.Path != tc.path || h.Kind != tc.kind || h.Seen != tc.seen || h.Proto != tc.pb || h.Avro != tc.avr {
				t.Errorf("got %s %s %q %s %s, want %s %s %q %s %s", h.Path, h.Kind, h.Seen, h.Proto, h.Avro, tc.path, tc.kind, tc.seen, tc.pb, tc.avr)
			}
			if h.Before != tc.before || h.After != tc.after {
				t.Errorf("bytes %d → %d, want %d → %d", h.Before, h.After, tc.before, tc.after)
			}
		})
	}
}

type hintLine struct {
	SKU  string  `json:"sku"`
	Unit string  `json:"unit"`
	Qty  int64   `json:"qty"`
	Cost float64 `json:"cost"`
}

type hintBase struct {
	Region string `json:"region"`
}

type hintOrder struct {
	hintBase
	ID      string              `json:"id"`
	Note    string              `json:"note"`
	Created string              `json:"created"`
	Updated string              `json:"updated"`
	Big     int64               `json:"big"`
	Zero    int64               `json:"zero"`
	Small   int32               `json:"small"`
	Total   float64             `json:"total"`
	Lines   []hintLine          `json:"lines"`
	ByDock  map[string]hintLine `json:"by_dock"`
	Opt     *string             `json:"opt"`
	When    time.Time           `json:"when"`
}

// Only the fields whose values show it are hinted; free text, unique IDs,
// mixed formats, large or zero integers, int32, fractional floats and
// pointers are not. Values of a struct type met at several places (Lines
// and ByDock) are counted together.
func TestFindHintsWhich(t *testing.T) {
	opt := "open"
	o := &hintOrder{
		hintBase: hintBase{Region: "eu-west"},
		ID:       "ord-1", Note: "leave at the door, please",
		Created: "2026-11-23T09:30:12Z", Updated: "yesterday",
		Big: 1 << 40, Small: 3, Total: 12.5, Opt: &opt, When: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		ByDock: map[string]hintLine{"d1": {SKU: "z-9", Unit: "kg", Qty: 1, Cost: 1}},
	}
	for i, sku := range []string{"a-1", "b-2", "c-3", "d-4", "e-5"} {
		o.Lines = append(o.Lines, hintLine{SKU: sku, Unit: []string{"kg", "pc"}[i%2], Qty: int64(i * 100), Cost: float64(i) + 0.25})
	}
	hs, err := derive.FindHints(o)
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, h := range hs {
		fmt.Fprintf(&got, "%s %s: %s\n", h.Path, h.Kind, h.Seen)
		if h.After >= h.Before && h.Kind != derive.HintNarrowInt {
			t.Errorf("%s: %d → %d bytes, want fewer", h.Path, h.Before, h.After)
		}
	}
	const want = `.Created timestamp: 1 non-empty value, all RFC 3339
.Lines[].Unit enum: 2 distinct values in 6
.Lines[].Qty narrower integer: 6 values, all in [0, 400]: fit int16
`
	if got.String() != want {
		t.Errorf("hints:\n%s\nwant\n%s", got.String(), want)
	}
}

func TestFindHintsErrors(t *testing.T) {
	type bad struct{ C chan int }
	for _, tc := range []struct {
		sample any
		want   string
	}{
		{nil, "not <nil>"},
		{hintInt{1}, "not derive_test.hintInt"},
		{(*hintInt)(nil), "not *derive_test.hintInt"},
		{&bad{}, "a channel carries no data"},
	} {
		if _, err := derive.FindHints(tc.sample); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%#v: %v, want an error with %q", tc.sample, err, tc.want)
		}
	}
	// One value says nothing of a number field's range: no hint.
	if hs, err := derive.FindHints(&hintInt{1200}); err != nil || len(hs) != 0 {
		t.Errorf("one int64: %v, hints\n%s", err, hs)
	}
	if err := (derive.Hints{{}}).TimeMarshal(time.Millisecond); !errors.Is(err, derive.ErrNoHints) {
		t.Errorf("TimeMarshal of a zero Hint: %v, want ErrNoHints", err)
	}
}

// TimeMarshal fills in both figures and the table gains their column;
// the figures themselves are not asserted.
func TestHintsTable(t *testing.T) {
	hs, err := derive.FindHints(&hintTags{[]string{"eu", "us", "eu", "us"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "field  Go type   seen                    protobuf            Avro           protobuf bytes  Avro bytes\n" +
		".Tags  []string  2 distinct values in 4  repeated enum Tags  array of enum  16 → 6 (-62%)   15 → 7 (-53%)"
	if hs.String() != want {
		t.Errorf("table:\n%s\nwant\n%s", hs, want)
	}
	if err := hs.TimeMarshal(time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if hs[0].MarshalBefore <= 0 || hs[0].MarshalAfter <= 0 || !strings.Contains(hs.String(), "marshal ns/op") {
		t.Errorf("after TimeMarshal: %v, %v ns/op; table\n%s", hs[0].MarshalBefore, hs[0].MarshalAfter, hs)
	}
	if (derive.Hints{}).String() != "" {
		t.Error("no hints: want an empty table")
	}
}

// The Avro bytes after a change are those hamba/avro writes for the
// sample on the schema with that field changed: checked here by encoding
// the tightened value on a schema written by hand; a sample avro/derived
// cannot take (a uint64 of 2^63) has none, with the reason.
func TestHintsAvroBytes(t *testing.T) {
	for _, tc := range []struct {
		sample any
		schema string
		after  any
	}{
		{&hintTime{"2026-11-23T09:30:12.5Z"},
			`{"type": "record", "name": "hintTime", "fields": [{"name": "at", "type": {"type": "long", "logicalType": "timestamp-micros"}}]}`,
			map[string]any{"at": time.Date(2026, 11, 23, 9, 30, 12, 5e8, time.UTC)}},
		{&hintTags{[]string{"eu", "us", "eu", "us", "eu"}},
			`{"type": "record", "name": "hintTags", "fields": [{"name": "tags", "type": {"type": "array", "items": {"type": "enum", "name": "Tags", "symbols": ["eu", "us"]}}}]}`,
			map[string]any{"tags": []any{"eu", "us", "eu", "us", "eu"}}},
		{&hintFloats{[]hintFloatRow{{150}, {40000}, {-3}}},
			`{"type": "record", "name": "hintFloats", "fields": [{"name": "rows", "type": {"type": "array", "items": {"type": "record", "name": "row", "fields": [{"name": "n", "type": "int"}]}}}]}`,
			map[string]any{"rows": []any{map[string]any{"n": 150}, map[string]any{"n": 40000}, map[string]any{"n": -3}}}},
	} {
		hs, err := derive.FindHints(tc.sample)
		if err != nil || len(hs) != 1 {
			t.Fatalf("%#v: %v, hints\n%s", tc.sample, err, hs)
		}
		data, err := avro.Marshal(avro.MustParse(tc.schema), tc.after)
		if err != nil {
			t.Fatal(err)
		}
		if hs[0].AvroErr != nil || hs[0].AvroAfter != len(data) || hs[0].AvroBefore <= hs[0].AvroAfter {
			t.Errorf("%#v: Avro bytes %d → %d (%v), want → %d", tc.sample, hs[0].AvroBefore, hs[0].AvroAfter, hs[0].AvroErr, len(data))
		}
	}
	type unsigned struct {
		Tags []string
		N    uint64
	}
	hs, err := derive.FindHints(&unsigned{Tags: []string{"a", "b", "a", "b"}, N: 1 << 63})
	if err != nil || len(hs) != 1 || hs[0].AvroBefore != -1 || hs[0].AvroErr == nil || !strings.Contains(hs.String(), "n/a") || !strings.Contains(hs[0].AvroErr.Error(), ".N: 9223372036854775808 is 2^63 or more") {
		t.Errorf("uint64 of 2^63: %v, hints %+v", err, hs)
	}
	// Below 2^63 a uint64 is an Avro long: avro/derived takes the sample
	// through its mirror type.
	hs, err = derive.FindHints(&unsigned{Tags: []string{"a", "b", "a", "b"}, N: 7})
	if err != nil || len(hs) != 1 || hs[0].AvroErr != nil || hs[0].AvroBefore != 12 || hs[0].AvroAfter != 8 {
		t.Errorf("uint64 of 7: %v, hints %+v", err, hs)
	}
}

// apiRepo is an API client's type: every field a pointer.
type apiRepo struct {
	Name       *string  `json:"name"`
	Pushed     *string  `json:"pushed_at"`
	Stars      *int64   `json:"stars"`
	Visibility *string  `json:"visibility"`
	Score      *float64 `json:"score"`
}

type apiRepos struct {
	Repos []apiRepo `json:"repos"`
}

// Presence fields are hinted from their non-nil values, the timestamp
// too (an optional string becomes a message field, with presence of its
// own).
func TestFindHintsPointers(t *testing.T) {
	p := func(s string) *string { return &s }
	var v apiRepos
	for i := range 6 {
		stars := int64(i * 7)
		v.Repos = append(v.Repos, apiRepo{Name: p(fmt.Sprintf("repo-%d-with-a-long-name", i)), Pushed: p(fmt.Sprintf("2026-11-2%dT09:30:12Z", i)),
			Stars: &stars, Visibility: p([]string{"public", "private"}[i%2])})
	}
	v.Repos[5].Pushed = nil // absent values do not count
	hs, err := derive.FindHints(&v)
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, h := range hs {
		fmt.Fprintf(&got, "%s %s %s: %s\n", h.Path, h.GoType, h.Kind, h.Seen)
		if h.After > h.Before {
			t.Errorf("%s: %d → %d bytes", h.Path, h.Before, h.After)
		}
	}
	const want = `.Repos[].Pushed *string timestamp: 5 non-empty values, all RFC 3339
.Repos[].Stars *int64 narrower integer: 6 values, all in [0, 35]: fit int8
.Repos[].Visibility *string enum: 2 distinct values in 6
`
	if got.String() != want {
		t.Errorf("hints:\n%s\nwant\n%s", got.String(), want)
	}
}
