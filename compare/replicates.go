package compare

import (
	"errors"
	"fmt"
	"slices"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/stats"
)

// Replicate runs.
//
// Paired sampling cancels a change of the machine's speed within a run,
// so a cell's speed-up has a tight interval; but that interval describes
// one process. A codec can run at a different speed in another process of
// the same binary: sonic compiles its encoders and decoders at run time,
// and where that code lands moves its speed-up by up to ±10% from one
// process to the next (docs/findings/noisy.md), while the interval of each
// run is ±2-3%. Two single runs cannot tell that apart from a change of
// the code. With several runs of each build (replicates, each a process
// of its own), the test is between runs: each run gives one value per
// cell, and Welch's t-test on their logarithms (stats.WelchLogs) weighs the difference against the spread between
// processes. Interleaving the replicates of the two builds (old, new, old,
// new, ...) also spreads a slow drift of the machine over both sides.

// The bases of rows tested between replicate runs (CompareRuns).
const (
	// BasisRuns: the cell's speed-up, one per run.
	BasisRuns = "runs"
	// BasisRunsNs: the cell's ns/op, one per run, normalised by each
	// run's calibration loop where every run recorded it (the baseline's
	// own cells, cells without a speed-up, and -by ns without the
	// normalisation).
	BasisRunsNs = "runs-ns"
	// BasisRunsRef: a cell with no speed-up (convert, say), against the
	// baseline's marshal on the same scenario in the same run: that
	// cell's median ns/op over this cell's, one ratio per run, so that a
	// change of the machine's speed between runs cancels as in a speed-up.
	BasisRunsRef = "runs-ref"
)

// CompareRuns is Compare for sides of several runs each: olds and news
// are replicate runs of the old and the new build (at least one each).
// A run split over several processes (serbench run -processes, cells
// with results.Row.Processes) counts as that many runs, one per process.
// With one run a side it is Compare. With two or more on both sides, each
// cell that every run timed is tested between runs (BasisRuns): its
// change is the ratio of the geometric means of the per-run values
// (speed-ups, or normalised ns/op as Compare chooses by opts.By; B/op and
// allocs/op from the per-run medians), its p-value Welch's t-test on their
// logarithms, corrected over all tests as Compare does. The rows show the
// first run of each side. An empty side is an error.
func CompareRuns(olds, news []*results.Run, opts CompareOptions) (*Comparison, error) {
	if len(olds) == 0 || len(news) == 0 {
		return nil, errors.New("report: CompareRuns needs at least one run on each side")
	}
	c, err := Compare(olds[0], news[0], opts)
	if err != nil {
		return c, err
	}
	olds, news = splitProcesses(olds), splitProcesses(news)
	if len(olds) < 2 || len(news) < 2 {
		return c, nil
	}
	c.OldRuns, c.NewRuns = len(olds), len(news)
	ref := CalibrationLoopNs(olds[0].Env)
	oldCells, newCells := cellIndex(olds), cellIndex(news)
	for i := range c.Rows {
		row := &c.Rows[i]
		if !row.Compared {
			continue
		}
		isBase := row.Codec == c.Baseline
		speedup := c.By == BySpeedup && !isBase && row.Basis != BasisMeter && row.Basis != BasisNs && row.Basis != BasisRoundsRef
		meter := c.By == BySpeedup && !speedup
		ov, okO := runValues(olds, oldCells, row.Cell, speedup, meter, ref)
		nv, okN := runValues(news, newCells, row.Cell, speedup, meter, ref)
		if !okO || !okN {
			continue
		}
		row.Basis = BasisRunsNs
		if speedup {
			row.Basis = BasisRuns
		}
		if meter && !isBase {
			ro, okRO := refValues(oldCells, row.Cell, c.Baseline)
			rn, okRN := refValues(newCells, row.Cell, c.Baseline)
			if okRO && okRN {
				ov, nv, speedup, row.Basis = ro, rn, true, BasisRunsRef
			}
		}
		row.P, row.Change = stats.WelchLogs(ov, nv, speedup)
		row.ChangeInterval, row.Resolution = nil, 0
		if lo, hi, ok := stats.WelchLogsInterval(ov, nv, speedup, 0.95); ok {
			setInterval(row, lo, hi)
		}
		row.OldValue, row.NewValue = stats.GeoMean(ov), stats.GeoMean(nv)
		row.Significant = row.P <= c.Alpha
		row.Stat = fmt.Sprintf("p=%.3f n=%d+%d %s", row.P, len(ov), len(nv), row.Basis)
		row.Delta = delta(row.Significant, row.Change)
		row.OutsideNoise = true // the test already weighs the spread between runs
		row.Warnings = nil
		for _, m := range []struct {
			ch  **MetricChange
			get func(results.Row) float64
		}{
			{&row.Bytes, func(r results.Row) float64 { return float64(r.BytesPerOp) }},
			{&row.Allocs, func(r results.Row) float64 { return float64(r.AllocsPerOp) }},
		} {
			if *m.ch == nil {
				continue
			}
			o, n := cellValues(oldCells, row.Cell, m.get), cellValues(newCells, row.Cell, m.get)
			if len(o) < 2 || len(n) < 2 {
				continue
			}
			p, ch := stats.WelchCounts(o, n)
			sig := p <= c.Alpha
			**m.ch = MetricChange{P: p, Significant: sig, Change: ch, Delta: delta(sig, ch)}
		}
	}
	correct(c.Rows, c.Alpha)
	c.Geomean = geomeans(c.Rows)
	c.Basis = basisLine(c)
	return c, nil
}

// delta is benchstat's form of a change: "+10.00%", "0.00%" or "~".
func delta(significant bool, change float64) string {
	switch {
	case !significant:
		return "~"
	case change == 0:
		return "0.00%"
	}
	return fmt.Sprintf("%+.2f%%", 100*change)
}

// cellIndex maps each run's cells by (codec, scenario, op): one map per
// run, in the order of runs.
func cellIndex(runs []*results.Run) []map[Cell]results.Row {
	out := make([]map[Cell]results.Row, len(runs))
	for i, d := range runs {
		out[i] = make(map[Cell]results.Row, len(d.Results))
		for _, r := range d.Results {
			out[i][Cell{r.Codec, r.Scenario, r.Op}] = r
		}
	}
	return out
}

// runValues returns one value of cell per run (cells as cellIndex gives
// them): its speed-up, its ns/op normalised to the calibration loop of the
// first old run (meter, ref > 0 and the run recorded its loop), or its raw
// ns/op. ok is false when a run did not time the cell or lacks the value.
func runValues(runs []*results.Run, cells []map[Cell]results.Row, cell Cell, speedup, meter bool, ref float64) ([]float64, bool) {
	var out []float64
	for i, d := range runs {
		r, found := cells[i][cell]
		if !found || !r.Timed() {
			return nil, false
		}
		v := r.NsPerOp
		switch {
		case speedup:
			v = r.Speedup
		case meter && ref > 0:
			l := CalibrationLoopNs(d.Env)
			if l <= 0 {
				return nil, false
			}
			v *= ref / l
		}
		if !(v > 0) {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// refValues returns, per run, the baseline's marshal ns/op on cell's
// scenario over cell's ns/op (BasisRunsRef); ok is false when a run did
// not time either.
func refValues(cells []map[Cell]results.Row, cell Cell, baseline string) ([]float64, bool) {
	out := make([]float64, len(cells))
	for i, m := range cells {
		r, okC := m[cell]
		b, okB := m[Cell{baseline, cell.Scenario, results.OpMarshal}]
		if !okC || !okB || !r.Timed() || !b.Timed() || !(r.NsPerOp > 0) || !(b.NsPerOp > 0) {
			return nil, false
		}
		out[i] = b.NsPerOp / r.NsPerOp
	}
	return out, true
}

// cellValues returns get of cell in every run that timed it.
func cellValues(cells []map[Cell]results.Row, cell Cell, get func(results.Row) float64) []float64 {
	var out []float64
	for _, m := range cells {
		if r, ok := m[cell]; ok && r.Timed() {
			out = append(out, get(r))
		}
	}
	return out
}

// splitProcesses returns runs with each run that was split over several
// processes replaced by one document per process: its cells carry that
// process's ns/op, speed-up, B/op and allocs/op (results.ProcessFigures)
// in place of the pooled ones. A run whose timed cells do not all hold
// the same number (two or more) of processes stays whole.
func splitProcesses(runs []*results.Run) []*results.Run {
	var out []*results.Run
	for _, d := range runs {
		n := 0
		for _, r := range d.Results {
			if !r.Timed() {
				continue
			}
			if n == 0 {
				n = len(r.Processes)
			}
			if len(r.Processes) != n {
				n = -1
				break
			}
		}
		if n < results.MinProcesses {
			out = append(out, d)
			continue
		}
		for p := range n {
			pd := *d
			pd.Results = slices.Clone(d.Results)
			for i := range pd.Results {
				r := &pd.Results[i]
				if !r.Timed() {
					continue
				}
				f := r.Processes[p]
				r.NsPerOp, r.Speedup, r.BytesPerOp, r.AllocsPerOp = f.NsPerOp, f.Speedup, f.BytesPerOp, f.AllocsPerOp
				r.Processes = nil
			}
			out = append(out, &pd)
		}
	}
	return out
}
