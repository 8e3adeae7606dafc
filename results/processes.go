package results

import (
	"fmt"
	"slices"

	"github.com/serbench/serbench/stats"
)

// Runs of several processes.
//
// Paired sampling cancels a change of the machine's speed within one
// process, but not what differs between processes of the same binary:
// sonic compiles its encoders at run time, and where that code and the
// heap land moves its speed-up by up to ±10% from one process to the next
// (docs/findings/noisy.md), while each process's interval is ±2-3%. A run
// split over several processes (serbench run -processes N) sees that
// spread: MergeProcesses pools the processes' samples into one row per
// cell and keeps each process's figures in Row.Processes, so that a
// comparison between two such runs can test between processes (package
// compare's CompareRuns) instead of reading one process's luck as a change.

// MinProcesses and MaxProcesses bound the processes of one run.
const (
	MinProcesses = 2
	MaxProcesses = 16
)

// mergeRows pools runs of the same matrix, each made by a process of
// its own (2 to MaxProcesses of them, in the order run), into one row
// per cell, in the first run's order. A timed cell gets every process's
// samples, per-sample B/op and allocs/op and pair ratios, in process
// order, and its figures are summarised again from them as the runner
// does (ns/op median and interval, B/op and allocs/op medians), with no
// Derived figures (the caller derives them again from the pooled samples
// and pair ratios); GC figures are the median of the processes', peak
// heap the largest. Processes holds each process's own
// figures. With target > 0, TargetMissed is set again against it. A cell
// untimed in any process keeps the first process's result that is not
// timed (its failure or n/a reason). Runs that do not hold the same
// cells are an error naming the first cell that differs.
func mergeRows(runs [][]Row, target float64) ([]Row, error) {
	if len(runs) < MinProcesses || len(runs) > MaxProcesses {
		return nil, fmt.Errorf("results: MergeProcesses of %d runs (range is [%d, %d])", len(runs), MinProcesses, MaxProcesses)
	}
	type key struct{ codec, scenario, op string }
	index := make([]map[key]int, len(runs))
	for i, rs := range runs {
		index[i] = make(map[key]int, len(rs))
		for j, r := range rs {
			index[i][key{r.Codec, r.Scenario, r.Op}] = j
		}
		if len(rs) != len(runs[0]) {
			return nil, fmt.Errorf("results: MergeProcesses: process %d has %d cells, process 1 has %d", i+1, len(rs), len(runs[0]))
		}
	}
	out := make([]Row, len(runs[0]))
	for j, first := range runs[0] {
		k := key{first.Codec, first.Scenario, first.Op}
		cells := make([]Row, len(runs))
		for i := range runs {
			at, ok := index[i][k]
			if !ok {
				return nil, fmt.Errorf("results: MergeProcesses: process %d lacks cell %s/%s/%s", i+1, k.codec, k.scenario, k.op)
			}
			cells[i] = runs[i][at]
		}
		out[j] = mergeCell(cells)
	}
	if target > 0 {
		for i := range out {
			r := &out[i]
			hw, ok := r.TargetHalfWidth()
			r.TargetMissed = r.Timed() && (!ok || hw > target)
		}
	}
	return out, nil
}

// mergeCell pools one cell of every process (see mergeRows).
func mergeCell(cells []Row) Row {
	for _, c := range cells {
		if !c.Timed() {
			return c
		}
	}
	r := cells[0]
	r.Samples, r.SampleBytes, r.SampleAllocs, r.PairRatios = nil, nil, nil, nil
	r.Processes = make([]ProcessFigures, len(cells))
	perSample := true // every process recorded B/op and allocs/op per sample
	var gcs, pauses []float64
	for i, c := range cells {
		r.Samples = append(r.Samples, c.Samples...)
		r.PairRatios = append(r.PairRatios, c.PairRatios...)
		perSample = perSample && len(c.SampleBytes) == len(c.Samples) && len(c.SampleAllocs) == len(c.Samples)
		gcs, pauses = append(gcs, c.GCPer1kOps), append(pauses, c.GCPauseNsPerOp)
		r.PeakHeapBytes = max(r.PeakHeapBytes, c.PeakHeapBytes)
		r.Processes[i] = ProcessFigures{NsPerOp: c.NsPerOp, Speedup: c.Speedup, BytesPerOp: c.BytesPerOp, AllocsPerOp: c.AllocsPerOp, Samples: len(c.Samples)}
		if c.Error != "" && r.Error == "" {
			r.Error, r.OK = c.Error, false
		}
	}
	if len(r.PairRatios) != len(r.Samples) {
		r.PairRatios = nil // some process sampled the cell unpaired: the ratio of medians instead
	}
	r.NsPerOp, r.NsPerOpLo, r.NsPerOpHi = stats.Summarize(r.Samples)
	r.HalfWidth, _ = stats.HalfWidth(r.Samples)
	r.SamplesTaken = len(r.Samples)
	if perSample {
		for _, c := range cells {
			r.SampleBytes = append(r.SampleBytes, c.SampleBytes...)
			r.SampleAllocs = append(r.SampleAllocs, c.SampleAllocs...)
		}
		r.BytesPerOp = int64(stats.Median(r.SampleBytes))
		r.AllocsPerOp = int64(stats.Median(r.SampleAllocs))
	} else {
		var bs, as []float64
		for _, p := range r.Processes {
			bs, as = append(bs, float64(p.BytesPerOp)), append(as, float64(p.AllocsPerOp))
		}
		r.BytesPerOp, r.AllocsPerOp = int64(stats.Median(bs)), int64(stats.Median(as))
	}
	r.GCPer1kOps, r.GCPauseNsPerOp = stats.Median(gcs), stats.Median(pauses)
	if r.Op != OpConvert && r.NsPerOp > 0 && r.SizeBytes > 0 {
		r.MBPerS = float64(r.SizeBytes) / r.NsPerOp * 1e3
	}
	r.Derived = Derived{} // the pooled samples' figures are derived again
	return r
}

// MergeProcesses returns the analysed run of docs, the runs of each
// process of a run split over several processes (serbench run
// -processes), in order, MinProcesses to MaxProcesses of them: the first's
// environment, codecs and scenarios; one row per cell pooling every
// process's samples (mergeRows: each timed cell summarised again,
// Row.Processes holding each process's own figures) and its Derived
// figures computed again from them; every process's warnings once each;
// and Analyze's figures. Runs that do not hold the same cells are an error
// naming the first cell that differs. docs are not changed.
func MergeProcesses(docs []*Run) (*Run, error) {
	if len(docs) < MinProcesses || len(docs) > MaxProcesses {
		return nil, fmt.Errorf("results: MergeProcesses of %d runs (range is [%d, %d])", len(docs), MinProcesses, MaxProcesses)
	}
	first := docs[0]
	runs := make([][]Row, len(docs))
	for i, d := range docs {
		runs[i] = d.Results
	}
	rows, err := mergeRows(runs, first.Target)
	if err != nil {
		return nil, err
	}
	doc := *first
	doc.Results = rows
	doc.Recommendations, doc.Geomeans, doc.Plateaus = nil, nil, nil
	doc.Warnings = nil
	for _, d := range docs {
		for _, w := range d.Warnings {
			if !slices.Contains(doc.Warnings, w) {
				doc.Warnings = append(doc.Warnings, w)
			}
		}
	}
	doc.derive()
	return &doc, nil
}
