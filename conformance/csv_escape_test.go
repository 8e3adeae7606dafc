package conformance

import (
	"bytes"
	"strings"
	"testing"
)

// TestCSVEscapesFormulas checks that a codec's n/a reason (text a library
// wrote) reaches a spreadsheet as text: a leading = is quoted.
func TestCSVEscapesFormulas(t *testing.T) {
	rep := &Report{Rows: []Row{{Suite: "s", Codec: "c", NA: "=1+1"}}}
	var buf bytes.Buffer
	if err := Write(&buf, "csv", rep, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "'=1+1") {
		t.Errorf("formula cell not quoted:\n%s", buf.String())
	}
}
