package conformance

import (
	"encoding/hex"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"
)

func TestItemDiag(t *testing.T) {
	for _, tc := range []struct{ hex, want string }{
		{"00", "0"},
		{"3bffffffffffffffff", "-18446744073709551616"},
		{"f93e00", "1.5"},
		{"f90000", "0.0"},
		{"f98000", "-0.0"},
		{"f90001", "5.960464477539063e-08"},
		{"f97c00", "Infinity"},
		{"f97d1f", "NaN(7ff47c0000000000)"},
		{"fa7fa3f553", "NaN(7ff47eaa60000000)"},
		{"5f42010243030405ff", "h'0102030405'"},
		{"a2616201616101", `{"a": 1, "b": 1}`},
		{"c249010000000000000000", "18446744073709551616"},
		{"c11a514b67b0", "time(2013-03-21T20:04:00Z)"},
		{"d82076687474703a2f2f7777772e6578616d706c652e636f6d", `32("http://www.example.com")`},
		{"f7", "undefined"},
		{"f8ff", "simple(255)"},
	} {
		b, _ := hex.DecodeString(tc.hex)
		it, rest, err := readItem(b, 0)
		if err != nil || len(rest) != 0 {
			t.Errorf("%s: %v, %d bytes left", tc.hex, err, len(rest))
			continue
		}
		if got := it.diag(); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.hex, got, tc.want)
		}
	}
	for _, bad := range []string{"18", "5f01ff", "1c", "9f"} {
		b, _ := hex.DecodeString(bad)
		if _, _, err := readItem(b, 0); err == nil {
			t.Errorf("%s: read without error", bad)
		}
	}
}

func TestDiagValue(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{nil, "null"},
		{uint64(1), "1"},
		{int64(-2), "-2"},
		{*big.NewInt(7), "7"},
		{1.0, "1.0"},
		{math.Inf(-1), "-Infinity"},
		{[]any{"a", []byte{1}}, `["a", h'01']`},
		{map[any]any{uint64(2): true, uint64(1): false}, "{1: false, 2: true}"},
		{cbor.Tag{Number: 32, Content: "x"}, `32("x")`},
		{time.Unix(1363896240, 0), "time(2013-03-21T20:04:00Z)"},
	} {
		if got := diagValue(tc.v); got != tc.want {
			t.Errorf("%#v: got %s, want %s", tc.v, got, tc.want)
		}
	}
}

// FuzzReadItem checks that the harness's own CBOR reader never panics, and
// that what it reads it writes in diagnostic form without panicking. (Its
// values are not compared with the library's here: the library differs by
// design on undefined, duplicate keys, NaN payloads and its limits, all of
// which the suite reports as misses.)
func FuzzReadItem(f *testing.F) {
	for _, s := range []string{"00", "f97d1f", "5f42010243030405ff", "a2616201616101", "c249010000000000000000", "9f018202039f0405ffff", "c074323031332d30332d32315432303a30343a30305a"} {
		b, _ := hex.DecodeString(s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		it, rest, err := readItem(data, 0)
		if err != nil {
			return
		}
		if len(rest) > len(data) {
			t.Fatalf("%x: %d bytes left of %d", data, len(rest), len(data))
		}
		_ = it.diag()
	})
}
