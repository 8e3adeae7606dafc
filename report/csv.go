package report

import (
	"io"
	"strconv"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/results"
)

// CSVHeader is the first record CSV writes; one record per result follows,
// with the fields of results.Row under their JSON names.
var CSVHeader = []string{"codec", "scenario", "op", "ns_per_op", "ns_per_op_lo", "ns_per_op_hi",
	"mb_per_s", "bytes_per_op", "allocs_per_op", "size_bytes", "speedup", "speedup_p",
	"floor_ratio", "samples", "iterations", "ok", "na", "error"}

// CSVCompressHeader is appended to CSVHeader, and its fields to every
// record, when a run has compression ops (`serbench run -compress`).
var CSVCompressHeader = []string{"compressed_bytes", "compress_ratio", "bytes_over_json"}

// CSVPerElemHeader is appended (after CSVCompressHeader's fields, if any)
// when a run has list workloads (the annotation workloads): encoded bytes
// per element, empty on rows without one (convert, other scenarios).
var CSVPerElemHeader = []string{"bytes_per_elem"}

// CSV writes doc's results as RFC 4180 CSV with a header record. Text
// fields (codec, scenario, op, error) go through CSVCell, so a name such as
// "=HYPERLINK(...)" is not a formula in a spreadsheet.
func CSV(w io.Writer, doc *results.Run) error {
	compressed, perElem := results.HasCompressed(doc.Results), hasPerElem(doc.Results)
	t := document.Table{Header: append([]string(nil), CSVHeader...)}
	// codec, scenario and op are text; then numbers up to ok, na and
	// error, text again (true and false are safe in a spreadsheet).
	for i := range t.Header {
		t.Numeric = append(t.Numeric, i >= 3 && i < len(CSVHeader)-3)
	}
	if compressed {
		t.Header = append(t.Header, CSVCompressHeader...)
	}
	if perElem {
		t.Header = append(t.Header, CSVPerElemHeader...)
	}
	for len(t.Numeric) < len(t.Header) {
		t.Numeric = append(t.Numeric, true)
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, r := range doc.Results {
		rec := []string{r.Codec, r.Scenario, r.Op, f(r.NsPerOp), f(r.NsPerOpLo), f(r.NsPerOpHi),
			f(r.MBPerS), strconv.FormatInt(r.BytesPerOp, 10), strconv.FormatInt(r.AllocsPerOp, 10),
			strconv.Itoa(r.SizeBytes), f(r.Speedup), f(r.SpeedupP),
			f(r.FloorRatio), strconv.Itoa(len(r.Samples)), strconv.Itoa(r.Iterations),
			strconv.FormatBool(r.OK), strconv.FormatBool(r.NA), r.Error}
		if compressed {
			rec = append(rec, strconv.Itoa(r.CompressedBytes), f(r.CompressRatio), f(r.BytesOverJSON))
		}
		if perElem {
			elem := ""
			if perElemCell(r) != "" {
				elem = f(r.BytesPerElem)
			}
			rec = append(rec, elem)
		}
		t.Rows = append(t.Rows, rec)
	}
	return t.WriteCSV(w)
}
