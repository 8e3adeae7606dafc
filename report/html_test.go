package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/serbench/serbench/report"
)

// TestHTMLSelfContained checks that the page fetches nothing: no URL, no
// external script, style sheet, image or font, no XML prolog inside.
func TestHTMLSelfContained(t *testing.T) {
	var buf bytes.Buffer
	if err := report.HTML(&buf, fixture(), nil); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, bad := range []string{"http:", "https:", "//cdn", "src=", "<link", "url(", "@import", "<?xml", "<!-- Generated"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	// sse-event has three charts; corpus/x has one timed cell, so three too.
	if n := strings.Count(page, "<svg"); n != 6 {
		t.Errorf("%d inline SVG charts, want 6", n)
	}
	for _, want := range []string{"sse-event", "corpus/x", "msgpack ✗", "fidelity: .Meta: want map[src:feed-a], got nil",
		"msgpack: not supported: a | pipe", "Test CPU @ 2.0GHz", `class="sortable"`, "github.com/vmihailenco/msgpack/v5@v5.4.1"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestHTMLDeterministic renders the same document twice; the golden test
// relies on gonum's SVG output being the same every time.
func TestHTMLDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	if err := report.HTML(&a, fixture(), nil); err != nil {
		t.Fatal(err)
	}
	if err := report.HTML(&b, fixture(), nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two renderings differ")
	}
}

// TestHTMLEscapes puts markup in IDs and errors: it must come out as text,
// in the tables and inside the SVG charts alike.
func TestHTMLEscapes(t *testing.T) {
	doc := fixture()
	for i := range doc.Results {
		if doc.Results[i].Codec == "msgpack" {
			doc.Results[i].Codec = `<b>m&p</b>`
		}
	}
	doc.Results[3].Error = `<script>alert(1)</script>`
	var buf bytes.Buffer
	if err := report.HTML(&buf, doc, nil); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if strings.Contains(page, "<b>m") || strings.Contains(page, "<script>alert") {
		t.Error("markup from the document reached the page unescaped")
	}
	if !strings.Contains(page, "&lt;b&gt;m&amp;p&lt;/b&gt;") {
		t.Error("escaped codec name not found")
	}
}
