package compare

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/stats"
	"github.com/serbench/serbench/verdict"
)

// Regression is one cell of a comparison that got worse by more than a
// gate's threshold (see Regressions).
type Regression struct {
	Cell
	// Metric is "speed-up" (over the run's baseline), "normalised ns/op"
	// (the new run's rescaled to the old run's machine speed by the
	// calibration loop, see BasisMeter), "ns/op", "B/op", "allocs/op",
	// "size" (encoded bytes) or "ok" (the cell round-tripped exactly in the
	// old run and not in the new one).
	Metric string `json:"metric"`
	// Old and New are the medians (the sizes for "size"; 1 and 0 for "ok").
	Old float64 `json:"old"`
	New float64 `json:"new"`
	// Change is how much worse the cell got (0.2 is 20% worse): New over
	// Old minus 1, but Old over New minus 1 for a speed-up.
	Change float64 `json:"change"`
	// Q is the corrected p-value of the change (see Correction); 0 for
	// "size" and "ok", which are single values that need no test.
	Q float64 `json:"q,omitempty"`
	// Interval is the 95% interval of a change of time
	// (CompareRow.ChangeInterval), nil for the other metrics.
	Interval *[2]float64 `json:"interval,omitempty"`
	// Limit is the gate's threshold the change was held against.
	Limit float64 `json:"limit"`
	// Judgement is set for an inconclusive change of time (Inconclusive):
	// by how much its interval is too wide.
	Judgement *verdict.Judgement `json:"judgement,omitempty"`
	// noiseBand: the interval lies beyond the limit, but the two runs'
	// own intervals overlap.
	noiseBand bool
	// unpaired: the cell has no figure paired with the baseline within
	// each run (Unpaired).
	unpaired bool
	// shift: the group's median change that made a regression of one
	// process a side inconclusive (ProcessShift).
	shift float64
	// allocWhy: why an allocation change is inconclusive (allocSeen).
	allocWhy string
}

// String is the line serbench compare -max-regression prints for r:
// "codec=C scenario=S op=O: speed-up 5.03× → 4.53× (+10.9% [+8.2%,
// +13.5%] time relative to the baseline, q=8.7e-05)"; for an
// inconclusive change followed by ", inconclusive at 5%: " and why.
// Percentages carry as many digits as it takes not to print a change
// equal to the limit (verdict.Percent).
func (r Regression) String() string {
	cell := fmt.Sprintf("codec=%s scenario=%s op=%s", r.Codec, r.Scenario, r.Op)
	if r.Metric == "ok" {
		return cell + ": no longer round-trips exactly"
	}
	change := verdict.Percent(r.Change, r.Limit)
	if r.Interval != nil {
		change += fmt.Sprintf(" [%s, %s]", verdict.Percent(r.Interval[0], r.Limit), verdict.Percent(r.Interval[1], r.Limit))
	}
	var s string
	if r.Metric == "speed-up" || r.Metric == "ratio to the baseline's marshal" {
		// The speed-up fell: print it as it is, and the change as time.
		s = fmt.Sprintf("%s: %s %.2f× → %.2f× (%s time relative to the baseline", cell, r.Metric, r.Old, r.New, change)
	} else {
		s = fmt.Sprintf("%s: %s %s (%s → %s", cell, r.Metric, change, document.Num(r.Old), document.Num(r.New))
	}
	if r.Q > 0 {
		s += fmt.Sprintf(", q=%.2g", r.Q)
	}
	s += ")"
	if r.Judgement != nil {
		s += fmt.Sprintf(", inconclusive at %s: %s", limitText(r.Limit), r.reason())
	}
	return s
}

// reason says why an inconclusive change could not be decided and what
// would decide it.
func (r Regression) reason() string {
	j := r.Judgement
	switch {
	case r.shift > 0:
		return fmt.Sprintf("the interval lies beyond it, but the other cells of %s %s moved %s together (their median), which a faster or slower process, not the code, may explain, and one process a side cannot tell which: replicate runs (run -processes 3 for both) would decide",
			r.Scenario, r.Op, verdict.Percent(r.shift, 0))
	case r.allocWhy != "":
		return r.allocWhy
	case r.unpaired:
		return "no figure of it was timed beside the baseline in the same run (no speed-up, no same-round samples of the baseline's marshal), and its ns/op across two runs follows the machine: replicate runs (run -processes 3) compare it between processes"
	case r.Interval == nil:
		return "too few samples for an interval"
	case r.noiseBand:
		return "the interval lies beyond it, but the two runs' own intervals overlap: replicate runs (run -processes 3, or several files a side) would decide"
	case j.Corrected:
		return "the interval lies beyond it, but the correction left the change not significant"
	}
	wide := "too wide to decide"
	if j.Shrink < 1e6 {
		wide = fmt.Sprintf("%.1f× too wide", j.Shrink)
	}
	return fmt.Sprintf("the interval reaches %.1f points past it (%s; the smallest change this comparison resolves is ±%.1f%%): more samples (-count, -target), replicate runs (run -processes 3) or a quieter machine would resolve it",
		100*j.TooWide, wide, 100*j.Resolution)
}

// limitText prints a threshold as a percentage: 0.05 is "5%".
func limitText(f float64) string { return fmt.Sprintf("%.3g%%", 100*f) }

// Gate is the regression gate a Comparison was judged by (ApplyGate).
type Gate struct {
	// Threshold is the gate's limit, a fraction (0.05 for 5%).
	Threshold float64 `json:"threshold"`
	// Regressed and Inconclusive count the rows of each verdict of time
	// (CompareRow.Verdict).
	Regressed    int `json:"regressed"`
	Inconclusive int `json:"inconclusive"`
}

// Judge is the verdict on row r's change of time at threshold max (a
// fraction), by the rule every gate of serbench shares (package verdict):
// the change's 95% interval (CompareRow.ChangeInterval) against max, with
// r.Significant as the corrected test. Besides, with one run a side, a
// change whose interval lies beyond max while the two runs' own
// intervals of the compared measure overlap (not OutsideNoise) is
// inconclusive rather than regressed, and so is one that a shift of the
// whole process could explain (ProcessShift). An Unpaired row is always
// inconclusive. ok is false for a row whose time
// does not gate: not compared, or the baseline's own cell when c is
// compared by speed-up (see Regressions). A negative or NaN max is an
// error.
func Judge(c *Comparison, r CompareRow, max float64) (j verdict.Judgement, ok bool, err error) {
	j, ok, _, err = judge(c, r, max)
	return j, ok, err
}

// judge is Judge; shift is the group's slowdown (ProcessShift) when it,
// not the cell, made a regression inconclusive, 0 otherwise.
func judge(c *Comparison, r CompareRow, max float64) (j verdict.Judgement, ok bool, shift float64, err error) {
	if !r.Compared || (c.By == BySpeedup && r.Codec == c.Baseline) {
		return verdict.Judgement{}, false, 0, nil
	}
	ch := verdict.Change{Point: r.Change, Lo: math.NaN(), Hi: math.NaN(), Significant: r.Significant}
	if r.ChangeInterval != nil {
		ch.Lo, ch.Hi = r.ChangeInterval[0], r.ChangeInterval[1]
	}
	j, err = verdict.Judge(ch, max)
	if err != nil {
		return j, false, 0, fmt.Errorf("report: %w", err)
	}
	if j.Verdict == verdict.Regressed && !r.OutsideNoise {
		j.Verdict = verdict.Inconclusive
	}
	if Unpaired(c, r) && j.Verdict != verdict.Inconclusive {
		j = verdict.Judgement{Verdict: verdict.Inconclusive, Threshold: max, Resolution: j.Resolution}
	}
	if j.Verdict == verdict.Regressed {
		if s, found := ProcessShift(c, r); found && s > 0 && (1+ch.Lo)/(1+s)-1 <= max {
			j.Verdict = verdict.Inconclusive
			return j, true, s, nil
		}
	}
	return j, true, 0, nil
}

// groupOp is the operation whose group row r's shift is read from
// (ProcessShift): the baseline's marshal for a row compared against it
// (BasisRoundsRef, BasisRunsRef), since a shift of that cell moves both
// groups alike; r's own otherwise.
func groupOp(r CompareRow) string {
	if r.Basis == BasisRoundsRef || r.Basis == BasisRunsRef {
		return results.OpMarshal
	}
	return r.Op
}

// minGroup is the fewest other cells of a scenario and operation whose
// median ProcessShift takes for the shift of their process.
const minGroup = 3

// ProcessShift is, when c compared one process a side (c.OldRuns is 0),
// the shift its process could have given row r: the median change of the
// other cells of r's scenario and operation (groupOp) that gate by time (at least
// minGroup of them, Unpaired ones left out). A change the whole group
// shares is the process's, not a codec's: one process's encoding/json
// ran faster, and every speed-up over it fell. The median is the
// estimate of that common shift that a minority of cells cannot move,
// however far they moved (its breakdown point is 1/2: Hampel, "A general
// qualitative definition of robustness", Annals of Mathematical
// Statistics 42(6), 1971), so one codec slowed by its own code leaves
// it near 0. ok is false between replicate runs, whose test already
// weighs the spread between processes, with -by ns (raw ns/op, where a
// change of every cell is what the user asked to see), and for a group
// too small.
func ProcessShift(c *Comparison, r CompareRow) (shift float64, ok bool) {
	if c.By != BySpeedup || (c.OldRuns >= 2 && c.NewRuns >= 2) {
		return 0, false
	}
	var others []float64
	op := groupOp(r)
	for _, o := range c.Rows {
		if o.Scenario != r.Scenario || groupOp(o) != op || o.Codec == r.Codec || !o.Compared ||
			(c.By == BySpeedup && o.Codec == c.Baseline) || Unpaired(c, o) {
			continue
		}
		others = append(others, o.Change)
	}
	if len(others) < minGroup {
		return 0, false
	}
	return stats.Median(others), true
}

// Unpaired reports whether row r of c, compared by speed-up, is a cell
// other than the baseline's whose time has nothing paired with the
// baseline within each run: no speed-up, no same-round samples of the
// baseline's marshal (BasisRoundsRef), no replicate runs. Its change is
// then of ns/op across the two runs (BasisMeter, BasisNs), which moves
// with the machine and the process as much as with the code (with one
// process a side the calibration loop's normalisation read +5% to +17%
// on identical code), so Judge never finds it regressed or unchanged:
// it is inconclusive.
func Unpaired(c *Comparison, r CompareRow) bool {
	return c.By == BySpeedup && r.Codec != c.Baseline && (r.Basis == BasisMeter || r.Basis == BasisNs)
}

// ApplyGate judges every row of each comparison at threshold max (a
// fraction) by Judge, sets CompareRow.Verdict and Comparison.Gate, so that
// the JSON document and the text formats carry the verdicts. A negative or
// NaN max is an error.
func ApplyGate(cs []*Comparison, max float64) error {
	for _, c := range cs {
		g := &Gate{Threshold: max}
		for i := range c.Rows {
			r := &c.Rows[i]
			j, ok, err := Judge(c, *r, max)
			if err != nil {
				return err
			}
			r.Verdict = ""
			if !ok {
				continue
			}
			r.Verdict = j.Verdict
			switch j.Verdict {
			case verdict.Regressed:
				g.Regressed++
			case verdict.Inconclusive:
				g.Inconclusive++
			}
		}
		c.Gate = g
	}
	return nil
}

// Regressions returns the cells of c that got worse by more than max (a
// fraction: 0.05 is 5%), in row order. A cell's time regresses, by the
// measure it was compared by (CompareRow.Basis: its speed-up over the
// baseline, or its ns/op), when Judge says verdict.Regressed: the change's
// whole 95% interval lies beyond max, the change is significant after the
// correction (Q <= Alpha), and, with one run a side, it is outside the
// noise band (OutsideNoise: the new 95% interval lies wholly on the worse
// side of the old one, when both runs recorded intervals). A change whose
// interval straddles max is not a regression but inconclusive
// (Inconclusive). B/op and allocs/op regress when their change is
// significant and above max (only when both runs carry per-sample
// figures) and, with one process on a side, could not be that process's
// own (allocSeen; otherwise Inconclusive lists them); the encoded size when it grew by more than max (one exact
// value, no test); and a cell that round-tripped exactly in the old run
// but not in the new one regresses whatever max. The baseline's own cells
// do not regress by time when c is compared by speed-up: no figure within
// a run separates their change from the machine's (the calibration loop
// that normalises their ns/op follows the machine only roughly: with five
// builds beside the runs it read +127% on identical code,
// docs/findings/noisy.md); the table still shows and tests them, and their
// B/op, allocs/op, size and round trip gate as every cell's. A negative
// max is an error.
func Regressions(c *Comparison, max float64) ([]Regression, error) {
	if !(max >= 0) {
		return nil, fmt.Errorf("report: invalid regression threshold %v (want >= 0)", max)
	}
	var out []Regression
	for _, r := range c.Rows {
		if r.Old.OK && !r.New.OK && !r.New.NA {
			out = append(out, Regression{Cell: r.Cell, Metric: "ok", Old: 1, New: 0, Change: -1})
			continue
		}
		if !r.Compared {
			continue
		}
		j, ok, err := Judge(c, r, max)
		if err != nil {
			return nil, err
		}
		if ok && j.Verdict == verdict.Regressed {
			out = append(out, Regression{Cell: r.Cell, Metric: basisMetric[r.Basis], Old: r.OldValue, New: r.NewValue, Change: r.Change, Q: r.Q, Interval: r.ChangeInterval, Limit: max})
		}
		regs, _ := allocChanges(c, r, max)
		out = append(out, regs...)
		if r.Old.SizeBytes > 0 && float64(r.New.SizeBytes) > float64(r.Old.SizeBytes)*(1+max) {
			out = append(out, Regression{Cell: r.Cell, Metric: "size", Old: float64(r.Old.SizeBytes), New: float64(r.New.SizeBytes),
				Change: float64(r.New.SizeBytes)/float64(r.Old.SizeBytes) - 1, Limit: max})
		}
	}
	return out, nil
}

// Inconclusive returns the cells of c whose change of time Judge finds
// inconclusive at max, in row order, as Regressions would list them, with
// Judgement set: the run could not tell whether they got worse by more
// than max. After each row's time come its B/op and allocs/op changes
// that are significant and above max but, with one process on a side,
// may be the process's own (allocSeen). A negative max is an error.
func Inconclusive(c *Comparison, max float64) ([]Regression, error) {
	if !(max >= 0) {
		return nil, fmt.Errorf("report: invalid regression threshold %v (want >= 0)", max)
	}
	var out []Regression
	for _, r := range c.Rows {
		j, ok, shift, err := judge(c, r, max)
		if err != nil {
			return nil, err
		}
		if ok && j.Verdict == verdict.Inconclusive {
			jj := j
			out = append(out, Regression{Cell: r.Cell, Metric: basisMetric[r.Basis], Old: r.OldValue, New: r.NewValue, Change: r.Change, Q: r.Q,
				Interval: r.ChangeInterval, Limit: max, Judgement: &jj, unpaired: Unpaired(c, r), shift: shift,
				noiseBand: !r.OutsideNoise && r.Significant && r.ChangeInterval != nil && r.ChangeInterval[0] > max})
		}
		if r.Compared {
			_, allocs := allocChanges(c, r, max)
			out = append(out, allocs...)
		}
	}
	return out, nil
}

// allocChanges returns row r's B/op and allocs/op changes that are
// significant and above max: as regressions, or as inconclusive when c has
// one process on a side and the change may be the process's (see
// allocSeen). Between replicate runs the test itself weighs the spread
// between processes, so every such change regresses.
func allocChanges(c *Comparison, r CompareRow, max float64) (regs, unsure []Regression) {
	for _, m := range []struct {
		name     string
		ch       *MetricChange
		old, new int64
		proc     func(results.ProcessFigures) int64
		samples  func(results.Row) []float64
	}{
		{"B/op", r.Bytes, r.Old.BytesPerOp, r.New.BytesPerOp,
			func(f results.ProcessFigures) int64 { return f.BytesPerOp }, func(x results.Row) []float64 { return x.SampleBytes }},
		{"allocs/op", r.Allocs, r.Old.AllocsPerOp, r.New.AllocsPerOp,
			func(f results.ProcessFigures) int64 { return f.AllocsPerOp }, func(x results.Row) []float64 { return x.SampleAllocs }},
	} {
		if m.ch == nil || !m.ch.Significant || !(m.ch.Change > max) {
			continue
		}
		g := Regression{Cell: r.Cell, Metric: m.name, Old: float64(m.old), New: float64(m.new), Change: m.ch.Change, Q: m.ch.Q, Limit: max}
		if c.OldRuns >= 2 && c.NewRuns >= 2 {
			regs = append(regs, g)
			continue
		}
		if why := allocSeen(r, m.ch.Change, m.proc, m.samples); why != "" {
			g.Judgement, g.allocWhy = &verdict.Judgement{Verdict: verdict.Inconclusive, Threshold: max, Resolution: math.NaN()}, why
			unsure = append(unsure, g)
			continue
		}
		regs = append(regs, g)
	}
	return regs, unsure
}

// allocSeen says why an allocation change of a row compared with one
// process on a side cannot be told from the process, or "" when it can:
// when a side has per-process figures of the cell (run -processes), the
// change must exceed the largest spread between its processes (largest
// over smallest, minus 1); when neither has, the figure must not vary
// from sample to sample within either run, since a figure that varies
// within a process (sonic's B/op) varies between processes too, and one
// process a side cannot show by how much.
func allocSeen(r CompareRow, change float64, proc func(results.ProcessFigures) int64, samples func(results.Row) []float64) string {
	spread, seen := 0.0, false
	for _, x := range []results.Row{r.Old, r.New} {
		if len(x.Processes) < 2 {
			continue
		}
		seen = true
		lo, hi := math.Inf(1), 0.0
		for _, f := range x.Processes {
			v := float64(proc(f))
			lo, hi = min(lo, v), max(hi, v)
		}
		if lo > 0 {
			spread = max(spread, hi/lo-1)
		} else if hi > 0 {
			spread = math.Inf(1)
		}
	}
	if seen {
		if change > spread {
			return ""
		}
		return fmt.Sprintf("the figure varies by up to %s between the processes of one side, more than this change: with one process on the other side, replicate runs (run -processes 3 for both) would decide", verdict.Percent(spread, 0))
	}
	for _, x := range []results.Row{r.Old, r.New} {
		xs := samples(x)
		if len(xs) > 0 && slices.Min(xs) != slices.Max(xs) {
			return "the figure varies from sample to sample within a run, so it may vary between processes, which one process a side cannot show: replicate runs (run -processes 3 for both) would decide"
		}
	}
	return ""
}

// basisMetric names the Metric of a time regression by its row's Basis.
var basisMetric = map[string]string{BasisPairs: "speed-up", BasisRounds: "speed-up", BasisRuns: "speed-up", BasisMeter: "normalised ns/op", BasisRunsNs: "ns/op per run", BasisRunsRef: "ratio to the baseline's marshal", BasisRoundsRef: "ratio to the baseline's marshal", BasisNs: "ns/op"}

// ParseThreshold reads a regression threshold written as a percentage
// ("5%", "0.5%") or a fraction ("0.05") and returns the fraction. Empty,
// negative or non-numeric text is an error.
func ParseThreshold(s string) (float64, error) {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	v, err := strconv.ParseFloat(strings.TrimSuffix(t, "%"), 64)
	if err != nil || !(v >= 0) {
		return 0, fmt.Errorf("report: invalid threshold %q (want a percentage such as 5%% or a fraction such as 0.05)", s)
	}
	if pct {
		v /= 100
	}
	return v, nil
}
