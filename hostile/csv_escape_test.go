package hostile

import (
	"bytes"
	"strings"
	"testing"
)

// TestCSVEscapesFormulas checks that text from a run (a codec name, an
// error) reaches a spreadsheet as text: a leading = is quoted.
func TestCSVEscapesFormulas(t *testing.T) {
	doc := &Document{Rows: []Row{{Codec: "=HYPERLINK(\"http://x\")", Scenario: "s", Error: "@SUM(A1)"}}}
	var buf bytes.Buffer
	if err := Write(&buf, "csv", doc); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, `'=HYPERLINK`) || !strings.Contains(out, "'@SUM(A1)") {
		t.Errorf("formula cells not quoted:\n%s", out)
	}
}
