package report_test

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/results"
)

// hostileDoc is a run whose names carry a terminal escape sequence, raw
// HTML with a newline, Markdown and a spreadsheet formula.
func hostileDoc() *results.Run {
	names := []string{"evil\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J", "<img src=x onerror=alert(1)>\n| x | y |", "=HYPERLINK(\"http://x\",\"y\")", "**bold** [a](javascript:x) ~~s~~"}
	doc := &results.Run{Env: env.Env{Go: "go1.27.4", GOOS: "linux", GOARCH: "amd64", CPU: "cpu\x1b[31m", Started: time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)}}
	for i, n := range names {
		doc.Results = append(doc.Results, results.Row{Codec: n, Scenario: "sse-event", Op: results.OpMarshal, NsPerOp: float64(100 + i),
			Samples: []float64{float64(100 + i)}, Iterations: 10, OK: i != 1, Error: map[bool]string{true: "", false: "@SUM(1+1)\x1b[1m"}[i != 1]})
	}
	return doc
}

func TestWritersEscape(t *testing.T) {
	doc := hostileDoc()
	var table, md, csvOut bytes.Buffer
	if err := report.Table(&table, doc); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(table.String(), "\x1b\x07") || !strings.Contains(table.String(), `evil\x1b]52;c;`) {
		t.Errorf("table: control characters reach the terminal:\n%q", table.String())
	}
	for _, line := range strings.Split(table.String(), "\n") {
		if strings.HasPrefix(line, "| x | y |") {
			t.Errorf("table: a newline in a name breaks the columns:\n%s", table.String())
		}
	}
	if err := report.Markdown(&md, doc); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<img", "\n| x | y |", "**bold**", "](javascript", "~~s~~", "\x1b"} {
		if strings.Contains(md.String(), bad) {
			t.Errorf("markdown holds %q unescaped:\n%s", bad, md.String())
		}
	}
	if !strings.Contains(md.String(), `&lt;img src=x onerror=alert(1)&gt; \| x \| y \|`) {
		t.Errorf("markdown: the HTML name is not shown as text:\n%s", md.String())
	}
	if err := report.CSV(&csvOut, doc); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&csvOut).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs[1:] {
		for _, f := range []string{rec[0], rec[len(rec)-1]} {
			if f != "" && strings.ContainsAny(f[:1], "=+-@") {
				t.Errorf("csv cell %q starts a formula", f)
			}
		}
	}
	if recs[3][0] != `'=HYPERLINK("http://x","y")` {
		t.Errorf("csv formula cell %q, want it quoted with a leading '", recs[3][0])
	}
}

// compare's "only in" lists and scenario headings carry names from the
// files: escaped in Markdown as in the table.
func TestCompareEscapesOnlyIn(t *testing.T) {
	old := hostileDoc()
	old.Results = append(old.Results, results.Row{Codec: "encoding/json", Scenario: "<b>x</b>\x1b[2J\n### y", Op: results.OpMarshal,
		NsPerOp: 100, Samples: []float64{100}, Iterations: 10, OK: true})
	newDoc := hostileDoc()
	newDoc.Results = newDoc.Results[:1]
	c, err := compare.Compare(old, newDoc, compare.CompareOptions{OldName: "old.json", NewName: "new.json"})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.OnlyOld) != 4 {
		t.Fatalf("only in old: %+v, want 4 cells", c.OnlyOld)
	}
	for _, format := range []string{"markdown", "table"} {
		var buf bytes.Buffer
		if err := report.WriteComparison(&buf, format, c); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, bad := range []string{"\x1b", "\x07", "\n| x | y |", "\n### y"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s holds %q unescaped:\n%s", format, bad, out)
			}
		}
		if format == "markdown" {
			for _, bad := range []string{"<img", "<b>", "**bold**", "](javascript"} {
				if strings.Contains(out, bad) {
					t.Errorf("markdown holds %q unescaped:\n%s", bad, out)
				}
			}
			if !strings.Contains(out, `- &lt;img src=x onerror=alert(1)&gt; \| x \| y \| sse-event marshal`) {
				t.Errorf("markdown: the HTML name is not listed as text:\n%s", out)
			}
		}
	}
}
