package codec_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/serbench/serbench/codec"
)

func TestParseJSONNumber(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want any
	}{
		{"0", int64(0)},
		{"-12", int64(-12)},
		{"9223372036854775807", int64(math.MaxInt64)},
		{"18446744073709551615", uint64(math.MaxUint64)},
		{"18446744073709551616", float64(1 << 64)},
		{"1.5", 1.5},
		{"1e3", 1000.0},
		{"-0.0", math.Copysign(0, -1)},
	} {
		got, err := codec.ParseJSONNumber(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseJSONNumber(%s) = %#v, %v, want %#v", tc.in, got, err, tc.want)
		}
	}
	if _, err := codec.ParseJSONNumber("1e400"); err == nil {
		t.Error("1e400: no error")
	}
}

func TestJSONTree(t *testing.T) {
	got, err := codec.JSONTree([]byte(`{"a":[1,18446744073709551615,2.5,"s\u00e9",true,null],"b":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": []any{int64(1), uint64(math.MaxUint64), 2.5, "sé", true, nil}, "b": map[string]any{}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	for _, bad := range []string{`{"a":`, `{} {}`, `[1e400]`} {
		if _, err := codec.JSONTree([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
