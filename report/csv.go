package report

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/serbench/serbench/document"
)

// CSVHeader is the first record CSV writes; one record per result follows,
// with the fields of bench.Result under their JSON names.
var CSVHeader = []string{"codec", "scenario", "op", "ns_per_op", "ns_per_op_lo", "ns_per_op_hi",
	"mb_per_s", "bytes_per_op", "allocs_per_op", "size_bytes", "speedup", "speedup_p",
	"floor_ratio", "samples", "iterations", "ok", "na", "error"}

// CSVCompressHeader is appended to CSVHeader, and its fields to every
// record, when a run has compression ops (`serbench run -compress`).
var CSVCompressHeader = []string{"compressed_bytes", "compress_ratio", "json_ratio"}

// CSVPerElemHeader is appended (after CSVCompressHeader's fields, if any)
// when a run has list workloads (the annotation workloads): encoded bytes
// per element, empty on rows without one (convert, other scenarios).
var CSVPerElemHeader = []string{"bytes_per_elem"}

// CSV writes doc's results as RFC 4180 CSV with a header record. Text
// fields (codec, scenario, op, error) go through CSVCell, so a name such as
// "=HYPERLINK(...)" is not a formula in a spreadsheet.
func CSV(w io.Writer, doc *Document) error {
	cw := csv.NewWriter(w)
	compressed, perElem := hasCompressed(doc.Results), hasPerElem(doc.Results)
	head := append([]string(nil), CSVHeader...)
	if compressed {
		head = append(head, CSVCompressHeader...)
	}
	if perElem {
		head = append(head, CSVPerElemHeader...)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, r := range doc.Results {
		rec := []string{document.CSVCell(r.Codec), document.CSVCell(r.Scenario), document.CSVCell(r.Op), f(r.NsPerOp), f(r.NsPerOpLo), f(r.NsPerOpHi),
			f(r.MBPerS), strconv.FormatInt(r.BytesPerOp, 10), strconv.FormatInt(r.AllocsPerOp, 10),
			strconv.Itoa(r.SizeBytes), f(r.Speedup), f(r.SpeedupP),
			f(r.FloorRatio), strconv.Itoa(len(r.Samples)), strconv.Itoa(r.Iterations),
			strconv.FormatBool(r.OK), strconv.FormatBool(r.NA), document.CSVCell(r.Error)}
		if compressed {
			rec = append(rec, strconv.Itoa(r.CompressedBytes), f(r.CompressRatio), f(r.JSONRatio))
		}
		if perElem {
			elem := ""
			if perElemCell(r) != "" {
				elem = f(r.BytesPerElem)
			}
			rec = append(rec, elem)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
