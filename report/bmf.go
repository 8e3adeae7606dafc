package report

import (
	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/results"
)

// bmfCell returns the BMF measures of one result, or nil for a cell that
// was not timed or did not round-trip exactly (a finding, not a number).
func bmfCell(r results.Row) map[string]document.BMFMetric {
	if !r.Timed() || !r.OK {
		return nil
	}
	m := map[string]document.BMFMetric{
		document.BMFLatency:     {Value: r.NsPerOp},
		document.BMFBytesPerOp:  {Value: float64(r.BytesPerOp)},
		document.BMFAllocsPerOp: {Value: float64(r.AllocsPerOp)},
	}
	if r.NsPerOpLo > 0 && r.NsPerOpHi > 0 {
		lo, hi := r.NsPerOpLo, r.NsPerOpHi
		m[document.BMFLatency] = document.BMFMetric{Value: r.NsPerOp, Lower: &lo, Upper: &hi}
	}
	if r.Op == results.OpMarshal && r.SizeBytes > 0 {
		m[document.BMFSize] = document.BMFMetric{Value: float64(r.SizeBytes)}
	}
	return m
}

// BMFOf returns doc's cells in the Bencher Metric Format, each named as its
// benchfmt benchmark (BenchName). Cells that were not timed or did not
// round-trip exactly are left out.
func BMFOf(doc *results.Run) document.BMF {
	out := document.BMF{}
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
func BMFOfComparisons(cs []*compare.Comparison) document.BMF {
	out := document.BMF{}
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
				m[document.BMFChange] = document.BMFMetric{Value: ch}
				if r.ChangeInterval != nil {
					m[document.BMFResolution] = document.BMFMetric{Value: 100 * r.Resolution}
				}
			}
			out[prefix+results.BenchName(r.Codec, r.Scenario, r.Op)] = m
		}
	}
	return out
}
