package serbench

import (
	"errors"
	"strings"
	"testing"

	"github.com/serbench/serbench/results"
)

// The benchmark's note of a derive refusal of two fields is one line,
// which benchstat skips, and gives the two lines back.
func TestNoteOneLinePerField(t *testing.T) {
	err := errors.New("derive: proto: shop.Bad: .F (func()): a func is code, not data\nderive: proto: shop.Bad: .C (chan int): a channel carries no data")
	got := note("n/a", "Codecs/codec=protobuf.derived/op=marshal", err)
	const want = `// serbench: n/a Codecs/codec=protobuf.derived/op=marshal: derive: proto: shop.Bad: .F (func()): a func is code, not data\nderive: proto: shop.Bad: .C (chan int): a channel carries no data`
	if got != want {
		t.Errorf("note:\n%s\nwant\n%s", got, want)
	}
	_, text, _ := strings.Cut(got, "op=marshal: ")
	if back := results.UnnoteText(text); back != err.Error() {
		t.Errorf("the note's text reads back as %q, want %q", back, err.Error())
	}
}
