package ikeapack

import (
	"bytes"
	"strings"
	"testing"
	"time"

	ikea "github.com/ikkerens/ikeapack"

	"github.com/serbench/serbench/internal/codectest"
	"github.com/serbench/serbench/scenario"
)

type (
	stamped  struct{ T time.Time }
	ints     struct{ V int }
	anyField struct{ V any }
	array    struct{ V [2]int32 }
	pointer  struct{ P *string }
)

// TestTimeIsWrittenAsNothing pins why Bind refuses time.Time: the library
// packs it as no bytes at all and unpacks the zero time, without an error.
func TestTimeIsWrittenAsNothing(t *testing.T) {
	var buf bytes.Buffer
	if err := ikea.Pack(&buf, &stamped{time.Date(2026, 5, 1, 9, 30, 15, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	var got stamped
	if err := ikea.Unpack(bytes.NewReader(buf.Bytes()), &got); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 0 || !got.T.IsZero() {
		t.Fatalf("the library packed a time.Time as %d bytes and unpacked %v: Bind need not refuse it", buf.Len(), got.T)
	}
}

func lib(v any) error {
	return codectest.LibRoundTrip(marshalRaw, func(data []byte, v any) error { return ikea.Unpack(bytes.NewReader(data), v) })(v)
}

func marshalRaw(v any) ([]byte, error) {
	var buf bytes.Buffer
	err := ikea.Pack(&buf, v)
	return buf.Bytes(), err
}

func TestRefused(t *testing.T) {
	codectest.CheckRefusals(t, New(), []codectest.Refusal{
		{Name: "time", Sample: &stamped{time.Now()}, Reason: "holds a time.Time", Lib: lib},
		{Name: "int", Sample: &ints{1}, Reason: "holds int or uint", Lib: lib},
		{Name: "interface", Sample: &anyField{V: int64(1)}, Reason: "holds interface values", Lib: lib},
		{Name: "array", Sample: &array{[2]int32{1, 2}}, Reason: "holds an array", Lib: lib},
	})
}

// TestErrorsNotPanics checks that what the library panics on, and bytes it
// would leave unread, are errors.
func TestErrorsNotPanics(t *testing.T) {
	c := New()
	b, err := c.Bind(&pointer{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Marshal(&pointer{}); err == nil || !strings.Contains(err.Error(), "Attempting to marshal nil value") {
		t.Errorf("Marshal of a nil pointer field: err = %v", err)
	}
	b, err = c.Bind(scenario.NewWSMessage())
	if err != nil {
		t.Fatal(err)
	}
	data, err := b.Marshal(scenario.NewWSMessage())
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range [][]byte{append(data[:len(data):len(data)], 0), data[:len(data)-1], {0, 0, 0, 200, 'x'}} {
		if _, err := b.Unmarshal(in); err == nil {
			t.Errorf("Unmarshal(%x) accepted", in)
		}
	}
}
