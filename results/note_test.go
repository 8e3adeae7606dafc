package results_test

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/results"
)

// A refusal of several lines goes on one note line and comes back whole.
func TestNoteText(t *testing.T) {
	for _, c := range []struct{ in, note, back string }{
		{"a b", "a b", "a b"},
		{"derive: .A (func()): code\n  derive: .B   (chan int): no\n", `derive: .A (func()): code\nderive: .B (chan int): no`, "derive: .A (func()): code\nderive: .B (chan int): no"},
		{`tag json:\"-\"` + "\nx", `tag json:\\"-\\"\nx`, `tag json:\"-\"` + "\nx"},
		{`a\nb literal`, `a\\nb literal`, `a\nb literal`},
	} {
		note := results.NoteText(c.in)
		if note != c.note || strings.Contains(note, "\n") {
			t.Errorf("results.NoteText(%q) = %q, want %q", c.in, note, c.note)
		}
		if back := results.UnnoteText(note); back != c.back {
			t.Errorf("results.UnnoteText(%q) = %q, want %q", note, back, c.back)
		}
	}
	if got := results.UnnoteText(`C:\path`); got != `C:\path` {
		t.Errorf("an old note's lone backslash: %q", got)
	}
}

// The note of a derive refusal of two fields is one line, which benchstat
// skips, and gives the two lines back.
func TestNoteOneLinePerField(t *testing.T) {
	reason := "derive: proto: shop.Bad: .F (func()): a func is code, not data\nderive: proto: shop.Bad: .C (chan int): a channel carries no data"
	got := results.Note(results.NoteNA, "Codecs/codec=protobuf.derived/op=marshal", reason)
	const want = `// serbench: n/a Codecs/codec=protobuf.derived/op=marshal: derive: proto: shop.Bad: .F (func()): a func is code, not data\nderive: proto: shop.Bad: .C (chan int): a channel carries no data`
	if got != want {
		t.Errorf("Note:\n%s\nwant\n%s", got, want)
	}
	_, text, _ := strings.Cut(got, "op=marshal: ")
	if back := results.UnnoteText(text); back != reason {
		t.Errorf("the note's text reads back as %q, want %q", back, reason)
	}
}
