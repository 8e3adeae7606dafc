package hprose

import (
	"strings"
	"testing"
	"time"

	hio "github.com/hprose/hprose-golang/v3/io"

	"github.com/serbench/serbench/internal/codectest"
	"github.com/serbench/serbench/scenario"
)

type (
	stamped  struct{ T time.Time }
	anyField struct{ V any }
	cplx     struct{ C complex128 }
	item     struct{ S []int64 }
	mapSlice struct{ M map[string][]int64 }
	mapItem  struct{ M map[string]item }
	mapPtr   struct{ M map[string]*item }
)

// TestTimeWallClock pins what the Info's Time says: a UTC time keeps its
// instant and zone; a time in another zone comes back as the same wall
// clock in time.Local.
func TestTimeWallClock(t *testing.T) {
	b, err := New().Bind(&stamped{})
	if err != nil {
		t.Fatal(err)
	}
	utc := time.Date(2026, 5, 1, 9, 30, 15, 123456789, time.UTC)
	zoned := time.Date(2026, 5, 1, 9, 30, 15, 123456789, time.FixedZone("CEST", 2*3600))
	for _, tc := range []struct {
		in, want time.Time
		loc      *time.Location
	}{
		{utc, utc, time.UTC},
		{zoned, time.Date(2026, 5, 1, 9, 30, 15, 123456789, time.Local), time.Local},
	} {
		data, err := b.Marshal(&stamped{tc.in})
		if err != nil {
			t.Fatal(err)
		}
		v, err := b.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		got := v.(*stamped).T
		if !got.Equal(tc.want) || got.Location() != tc.loc {
			t.Errorf("%v (%q) came back as %v in %v, want %v in %v", tc.in, data, got, got.Location(), tc.want, tc.loc)
		}
	}
}

func lib(v any) error {
	return codectest.LibRoundTrip(hio.Marshal, hio.Unmarshal)(v)
}

func TestRefused(t *testing.T) {
	codectest.CheckRefusals(t, New(), []codectest.Refusal{
		{Name: "map of slices", Sample: &mapSlice{map[string][]int64{"a": {1, 2}, "b": {3, 4}}}, Reason: "holds a map whose values hold slices or pointers", Lib: lib},
		{Name: "map of structs with slices", Sample: &mapItem{map[string]item{"a": {[]int64{1, 2}}, "b": {[]int64{3, 4}}}}, Reason: "holds a map whose values hold slices or pointers", Lib: lib},
		{Name: "map of pointers", Sample: &mapPtr{map[string]*item{"a": {[]int64{1, 2}}, "b": {[]int64{3, 4}}}}, Reason: "holds a map whose values hold slices or pointers", Lib: lib},
		{Name: "interface", Sample: &anyField{V: int64(1)}, Reason: "holds interface values", Lib: lib},
		{Name: "complex", Sample: &cplx{1 + 2i}, Reason: "holds a complex number", Lib: lib},
	})
}

// TestBadInput checks that trailing bytes, a cut message and a wrong tag
// are errors.
func TestBadInput(t *testing.T) {
	b, err := New().Bind(scenario.NewWSMessage())
	if err != nil {
		t.Fatal(err)
	}
	data, err := b.Marshal(scenario.NewWSMessage())
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range [][]byte{append(data[:len(data):len(data)], 'n'), data[:len(data)-1], {}, []byte("s3\"abc\"")} {
		if _, err := b.Unmarshal(in); err == nil || !strings.HasPrefix(err.Error(), "hprose: ") {
			t.Errorf("Unmarshal(%q): err = %v", in, err)
		}
	}
}
