package document_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/serbench/serbench/document"
)

// TestFormats checks that Formats.Write picks the named writer and that an
// unknown format is the one error every document's Write gives.
func TestFormats(t *testing.T) {
	fs := document.Formats[string]{Package: "demo", Document: "demo", List: []document.Format[string]{
		{Name: "upper", Write: func(w io.Writer, s string) error { _, err := io.WriteString(w, "U:"+s); return err }},
		{Name: "json", Write: func(w io.Writer, s string) error {
			return document.WriteJSON(w, "demo", " ", map[string]string{"s": s})
		}},
	}}
	if got := fs.Names(); len(got) != 2 || got[0] != "upper" || got[1] != "json" {
		t.Errorf("Names() = %q", got)
	}
	var b bytes.Buffer
	if err := fs.Write(&b, "upper", "x"); err != nil || b.String() != "U:x" {
		t.Errorf("upper: %q, %v", b.String(), err)
	}
	b.Reset()
	if err := fs.Write(&b, "json", "x"); err != nil || b.String() != "{\n \"s\": \"x\"\n}\n" {
		t.Errorf("json: %q, %v", b.String(), err)
	}
	err := fs.Write(&b, "yaml", "x")
	var u *document.UnknownFormatError
	if !errors.As(err, &u) || u.Format != "yaml" {
		t.Fatalf("yaml: %v, want an UnknownFormatError", err)
	}
	if want := `demo: unknown demo format "yaml" (valid: upper, json)`; err.Error() != want {
		t.Errorf("yaml: %q, want %q", err, want)
	}
}
