package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A .ndjson file, and a .json file holding one value per line, are message
// corpora with one message per non-blank line, in order, with line numbers.
func TestFilesJSONLines(t *testing.T) {
	ss, err := Files(filepath.Join("testdata", "events.ndjson"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := ss[0]
	if s.ID != "corpus/events" || len(s.Messages) != 8 {
		t.Fatalf("ID %q, %d messages; want corpus/events, 8", s.ID, len(s.Messages))
	}
	// Line 4 of the file is blank, so the messages sit on lines 1-3 and 5-9.
	var lines []int
	for _, m := range s.Messages {
		lines = append(lines, m.Line)
	}
	if got := fmt.Sprint(lines); got != "[1 2 3 5 6 7 8 9]" {
		t.Errorf("lines %s, want [1 2 3 5 6 7 8 9]", got)
	}
	if err := s.Diff(s.Value()); err != nil {
		t.Errorf("the first message does not equal itself: %v", err)
	}
	if err := s.Messages[1].Diff(s.Messages[2].Value); err == nil {
		t.Error("message 2 equals message 3")
	}

	dir := t.TempDir()
	detected := filepath.Join(dir, "capture.json")
	if err := os.WriteFile(detected, []byte("{\"a\":1}\r\n{\"a\":9007199254740993}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ss, err = Files(detected, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := ss[0]; s.ID != "corpus/capture" || len(s.Messages) != 2 || len(s.Source) != 1 || s.Source[0].Path != "line 2 [\"a\"]" {
		t.Errorf("detected: ID %q, %d messages, source %+v", s.ID, len(s.Messages), s.Source)
	}
}

// Bad JSON Lines: each a one-line error naming the file and the line, the
// limits as a *LineLimitError; a pretty-printed document followed by
// another stays the plain "data after the JSON value" error.
func TestFilesJSONLinesErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name, path string
		opts       Options
		want       string
		limit      string
	}{
		{"bad line", write("bad.ndjson", "{\"a\":1}\n{\"a\":\n"), Options{}, "bad.ndjson: line 2: invalid JSON", ""},
		{"two values on a line", write("two.jsonl", "1 2\n"), Options{}, "line 1: data after the JSON value", ""},
		{"empty", write("empty.ndjson", "\n  \n"), Options{}, "no JSON value on any line", ""},
		{"long line", write("long.ndjson", "1\n\"abcdef\"\n"), Options{MaxLineBytes: 4}, "line 2: 8 bytes exceeds MaxLineBytes 4", "MaxLineBytes"},
		{"many lines", write("many.ndjson", "1\n2\n3\n"), Options{MaxLines: 2}, "line 3: more than MaxLines 2 messages", "MaxLines"},
		{"detected, too many", write("many.json", "1\n2\n3\n"), Options{MaxLines: 2}, "MaxLines", "MaxLines"},
		{"not lines", write("pretty.json", "{\n \"a\": 1\n}\n{\"b\": 2}\n"), Options{}, "data after the JSON value at byte offset 11 (line 3, column 2)", ""},
		{"negative MaxLines", write("ok.ndjson", "1\n"), Options{MaxLines: -1}, "invalid MaxLines -1", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Files(tc.path, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			var le *LineLimitError
			if got := errors.As(err, &le); got != (tc.limit != "") || (got && le.Limit != tc.limit) {
				t.Errorf("LineLimitError %v (%+v), want limit %q", got, le, tc.limit)
			}
		})
	}
}

// FuzzDecodeLines: no panic on any input; what decodes is one message per
// non-blank line, on increasing lines, each equal to itself, within the
// limits; an error names a line or the limit.
func FuzzDecodeLines(f *testing.F) {
	for _, s := range []string{"{\"a\":1}\n{\"a\":2}\n", "1\r\n\n2", "[1,\n2]\n", "\"x\" 3\n", "{\"a\":1e400}\n{}"} {
		f.Add([]byte(s))
	}
	opts, err := Options{MaxLines: 50, MaxLineBytes: 200}.Effective()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		msgs, _, err := decodeLines("f.ndjson", data, opts)
		if err != nil {
			if !strings.Contains(err.Error(), "f.ndjson") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		nonBlank := 0
		for _, l := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				nonBlank++
			}
		}
		if len(msgs) != nonBlank || len(msgs) > opts.MaxLines {
			t.Fatalf("%d messages for %d non-blank lines", len(msgs), nonBlank)
		}
		for i, m := range msgs {
			if i > 0 && m.Line <= msgs[i-1].Line {
				t.Fatalf("lines not increasing: %d after %d", m.Line, msgs[i-1].Line)
			}
			if err := m.Diff(m.Value); err != nil {
				t.Fatalf("line %d differs from itself: %v", m.Line, err)
			}
		}
	})
}
