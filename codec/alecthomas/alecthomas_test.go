package alecthomas

import (
	"strings"
	"testing"

	"github.com/alecthomas/binary"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/codectest"
)

type (
	twoStrings struct{ S, T string }
	pointer    struct{ P *string }
	anyField   struct{ V any }
	array      struct{ V [2]int32 }
)

// TestShortStringIsAnError pins why the adapter decodes from a fullReader:
// on the library's own Unmarshal, a string cut short by the end of the
// message comes back padded with zero bytes, without an error.
func TestShortStringIsAnError(t *testing.T) {
	data, err := binary.Marshal(&twoStrings{"hello", "world"})
	if err != nil {
		t.Fatal(err)
	}
	cut := data[:len(data)-2]
	var got twoStrings
	if err := binary.Unmarshal(cut, &got); err != nil || got.T != "wor\x00\x00" {
		t.Errorf("library: %q, %v; want \"wor\\x00\\x00\" and no error (else the fullReader may go)", got.T, err)
	}
	b, err := New().Bind(&twoStrings{})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := b.Unmarshal(cut); err == nil {
		t.Errorf("adapter accepted a cut message: %+v", v)
	}
	if _, err := b.Unmarshal(append(data[:len(data):len(data)], 0)); err == nil || !strings.Contains(err.Error(), "decoded 12 of 13 bytes") {
		t.Errorf("trailing byte: err = %v", err)
	}
	// A length beyond what make accepts panics in the library.
	huge := []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40}
	if _, err := b.Unmarshal(huge); err == nil || !strings.Contains(err.Error(), "panicked") {
		t.Errorf("a 2^62-byte string: err = %v, want the recovered panic", err)
	}
}

func TestRefused(t *testing.T) {
	lib := codectest.LibRoundTrip(binary.Marshal, binary.Unmarshal)
	s := "x"
	codectest.CheckRefusals(t, New(), []codectest.Refusal{
		{Name: "pointer", Sample: &pointer{&s}, Reason: "holds pointers", Lib: lib},
		{Name: "interface", Sample: &anyField{V: int64(1)}, Reason: "holds interface values", Lib: lib},
		{Name: "array", Sample: &array{[2]int32{1, 2}}, Reason: "holds an array", Lib: lib},
	})
}

// TestEmptyStringAtTheEnd checks a message that ends with an empty string:
// the library's own Unmarshal fails (EOF), the adapter's reader does not.
func TestEmptyStringAtTheEnd(t *testing.T) {
	empty := &twoStrings{"a", ""}
	if err := codectest.LibRoundTrip(binary.Marshal, binary.Unmarshal)(empty); err == nil {
		t.Errorf("the library decodes a message ending with an empty string: fullReader need not allow empty reads")
	}
	if _, err := codec.RoundTrip(New(), empty); err != nil {
		t.Error(err)
	}
}
