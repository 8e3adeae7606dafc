package report

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/serbench/serbench/results"
)

// TestCSVPerElem checks the bytes_per_elem column: present only when a
// result has one, filled on its rows and empty on convert rows.
func TestCSVPerElem(t *testing.T) {
	doc := &results.Run{Results: []results.Row{
		{Codec: "wire", Scenario: "annot/coo@small", Op: "marshal", SizeBytes: 693, BytesPerElem: 6.93, OK: true},
		{Codec: "protobuf", Scenario: "annot/coo@small", Op: results.OpConvert, OK: true},
	}}
	var buf bytes.Buffer
	if err := CSV(&buf, doc); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	last := len(recs[0]) - 1
	if recs[0][last] != "bytes_per_elem" || recs[1][last] != "6.93" || recs[2][last] != "" {
		t.Errorf("header %q, rows %q %q", recs[0][last], recs[1][last], recs[2][last])
	}

	doc.Results = doc.Results[1:]
	buf.Reset()
	if err := CSV(&buf, doc); err != nil {
		t.Fatal(err)
	}
	if recs, _ := csv.NewReader(&buf).ReadAll(); len(recs[0]) != len(CSVHeader) {
		t.Errorf("without list workloads the header is %q", recs[0])
	}
}
