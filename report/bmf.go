package report

import (
	"encoding/json"
	"io"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/results"
)

// BMF is a document in the Bencher Metric Format: benchmark name → measure
// slug → metric. It is the JSON shape Bencher's "json" adapter reads
// (https://bencher.dev/docs/reference/bencher-metric-format/): an object
// keyed by benchmark, each an object keyed by measure, each with a required
// "value" and optional "lower_value" and "upper_value" numbers.
type BMF map[string]map[string]BMFMetric

// BMFMetric is one measure's value of one benchmark, with its interval
// where one is known.
type BMFMetric struct {
	Value float64  `json:"value"`
	Lower *float64 `json:"lower_value,omitempty"`
	Upper *float64 `json:"upper_value,omitempty"`
}

// Measure slugs serbench writes in BMF. "latency" is Bencher's built-in
// Latency measure (ns); the others are created by Bencher on first upload,
// named by their slug.
const (
	BMFLatency     = "latency"            // median ns/op, with its 95% interval
	BMFBytesPerOp  = "bytes-per-op"       // median B/op
	BMFAllocsPerOp = "allocs-per-op"      // median allocs/op
	BMFSize        = "encoded-size"       // encoded bytes (marshal cells only)
	BMFChange      = "latency-change"     // compare only: compare.CompareRow.Change in percent (positive: slower)
	BMFResolution  = "latency-resolution" // compare only: compare.CompareRow.Resolution in percent
)

// bmfCell returns the BMF measures of one result, or nil for a cell that
// was not timed or did not round-trip exactly (a finding, not a number).
func bmfCell(r results.Row) map[string]BMFMetric {
	if !r.Timed() || !r.OK {
		return nil
	}
	m := map[string]BMFMetric{
		BMFLatency:     {Value: r.NsPerOp},
		BMFBytesPerOp:  {Value: float64(r.BytesPerOp)},
		BMFAllocsPerOp: {Value: float64(r.AllocsPerOp)},
	}
	if r.NsPerOpLo > 0 && r.NsPerOpHi > 0 {
		lo, hi := r.NsPerOpLo, r.NsPerOpHi
		m[BMFLatency] = BMFMetric{Value: r.NsPerOp, Lower: &lo, Upper: &hi}
	}
	if r.Op == results.OpMarshal && r.SizeBytes > 0 {
		m[BMFSize] = BMFMetric{Value: float64(r.SizeBytes)}
	}
	return m
}

// BMFOf returns doc's cells in the Bencher Metric Format, each named as its
// benchfmt benchmark (BenchName). Cells that were not timed or did not
// round-trip exactly are left out.
func BMFOf(doc *results.Run) BMF {
	out := BMF{}
	for _, r := range doc.Results {
		if m := bmfCell(r); m != nil {
			out[results.BenchName(r.Codec, r.Scenario, r.Op)] = m
		}
	}
	return out
}

// BMFOfComparisons returns the new runs of cs in the Bencher Metric
// Format, as BMFOf, with the change against the old run added to each
// compared cell (BMFChange, in percent, positive when slower: the change
// of the measure the cell was compared by, CompareRow.Change, so by
// default of its time relative to the run's baseline; 0 for a change that
// is not significant after the correction) and, when the change has an
// interval, the smallest change the comparison resolves
// (BMFResolution, percent: CompareRow.Resolution). With more than one comparison, each
// benchmark name is prefixed by the new run's name and a space.
func BMFOfComparisons(cs []*compare.Comparison) BMF {
	out := BMF{}
	for _, c := range cs {
		prefix := ""
		if len(cs) > 1 {
			prefix = c.NewName + " "
		}
		for _, r := range c.Rows {
			m := bmfCell(r.New)
			if m == nil {
				continue
			}
			if r.Compared {
				ch := 0.0
				if r.Significant {
					ch = 100 * r.Change
				}
				m[BMFChange] = BMFMetric{Value: ch}
				if r.ChangeInterval != nil {
					m[BMFResolution] = BMFMetric{Value: 100 * r.Resolution}
				}
			}
			out[prefix+results.BenchName(r.Codec, r.Scenario, r.Op)] = m
		}
	}
	return out
}

// writeBMF writes b as indented JSON (keys sorted, so the output is
// deterministic).
func writeBMF(w io.Writer, b BMF) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(b)
}
