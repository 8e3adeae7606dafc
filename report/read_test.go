package report_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/results"
)

// What show prints for go test output with a codec on generated types
// (protobuf: marshal, unmarshal and convert) and a scenario that
// encoding/json does not round-trip (testdata/gotest-convert.txt, written
// for this test in go test's format): the recommendation counts protobuf's
// conversion and says so, and the lossy baseline is named as lossy; a
// derive refusal of two fields (one note line, the fields joined by `\n`)
// is a footnote of two lines in every document.
func TestGoldenGoTestConvert(t *testing.T) {
	doc, err := results.ReadFile(filepath.Join("testdata", "gotest-convert.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"table", "markdown"} {
		var buf bytes.Buffer
		if err := report.Write(&buf, format, doc, nil); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "gotest-convert."+format), buf.Bytes())
	}
	var buf bytes.Buffer
	if err := report.Write(&buf, "html", doc, nil); err != nil {
		t.Fatal(err)
	}
	const two = "<code class=\"lines\">derive: proto: account.Account: .Extra (interface {}): an interface has no schema\nderive: proto: account.Account: .Tags (*[]string): a pointer to a slice has no proto3 form</code>"
	if !strings.Contains(buf.String(), two) {
		t.Errorf("html: no finding with the refusal's two lines (%s)", two)
	}
}
