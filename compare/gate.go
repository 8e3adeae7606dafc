package compare

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/serbench/serbench/gate"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/stats"
	"github.com/serbench/serbench/verdict"
)

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
// whole process could explain (ProcessShift), and one compared by
// same-round ratios to the baseline's marshal (BasisRoundsRef: a convert
// cell, one run a side), whose two samples are a round apart rather than
// bracketed as a speed-up's pair is: on identical code under a busy
// co-runner, 6 such cells of 10 trials read regressed by +10% to +300%
// (docs/findings/noisy.md), because the noise of the first rounds differed
// between the runs. An Unpaired row is always inconclusive. ok is false for a row whose time
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
	if j.Verdict == verdict.Regressed && (!r.OutsideNoise || r.Basis == BasisRoundsRef) {
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
	if j.Verdict == verdict.Regressed && OneProcess(c) {
		j.Verdict = verdict.Inconclusive
	}
	return j, true, 0, nil
}

// OneProcess reports whether c compared one process on a side (either
// side): no replicate runs, no run of several processes (run
// -processes). Such a comparison cannot see how far one codec's time moves
// from process to process with the code unchanged, so a change of time
// beyond the threshold is inconclusive, never regressed (Judge), and the
// line says that runs of three processes a side would decide. Measured on
// identical code beside a busy co-runner (docs/findings/noisy.md, 10
// trials of six codecs on the five seeds): one process a side flagged
// sonic's sse-event marshal +11.6% [+6.5%, +14.5%] (sonic compiles its
// code at run time, and where it lands differs between processes) and a
// process whose cbor marshal ran 45 times slower with other allocations;
// three processes a side flagged nothing.
func OneProcess(c *Comparison) bool {
	return c.OldRuns < 2 || c.NewRuns < 2
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

// Figures is every cell of c as the gate of max (a fraction: 0.05 for
// 5%) judges it, in row order, for package gate to sort and print
// (Regressions, Inconclusive). For each row:
//
//   - "ok" regressed, and nothing else of the row, when the cell
//     round-tripped exactly in the old run but not in the new one;
//   - its change of time, by the measure it was compared by
//     (CompareRow.Basis), with Judge's verdict, when it gates (Judge's ok);
//   - its B/op and allocs/op when their change is significant and above
//     max: regressed, or inconclusive when one process on a side may
//     explain it (allocSeen);
//   - its encoded size, regressed when it grew by more than max (one
//     exact value, no test).
//
// An inconclusive figure carries compare's remedies: more samples,
// replicate runs, a quieter machine. A negative or NaN max is an error.
func Figures(c *Comparison, max float64) ([]gate.Figure, error) {
	if !(max >= 0) {
		return nil, fmt.Errorf("report: invalid regression threshold %v (want >= 0)", max)
	}
	var out []gate.Figure
	for _, r := range c.Rows {
		name := fmt.Sprintf("codec=%s scenario=%s op=%s", r.Codec, r.Scenario, r.Op)
		if r.Old.OK && !r.New.OK && !r.New.NA {
			out = append(out, gate.Figure{Name: name, Metric: "ok", Base: 1, Head: 0, Text: "no longer round-trips exactly",
				Change: noChange(-1), Judgement: verdict.Judgement{Verdict: verdict.Regressed, Threshold: max}})
			continue
		}
		if !r.Compared {
			continue
		}
		j, ok, shift, err := judge(c, r, max)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, timeFigure(c, r, name, j, shift))
		}
		out = append(out, allocFigures(c, r, name, max)...)
		if r.Old.SizeBytes > 0 && float64(r.New.SizeBytes) > float64(r.Old.SizeBytes)*(1+max) {
			old, new := float64(r.Old.SizeBytes), float64(r.New.SizeBytes)
			out = append(out, gate.Figure{Name: name, Metric: "size", Base: old, Head: new, Change: noChange(new/old - 1),
				Judgement: verdict.Judgement{Verdict: verdict.Regressed, Threshold: max}, Evidence: "beyond " + gate.LimitText(max)})
		}
	}
	return out, nil
}

// noChange is a change without an interval or a test.
func noChange(point float64) verdict.Change {
	return verdict.Change{Point: point, Lo: math.NaN(), Hi: math.NaN()}
}

// remedies are what would resolve a change of time whose interval is too
// wide, in compare's words.
var remedies = []string{"more samples (-count, -target)", "replicate runs (run -processes 3)", "a quieter machine"}

// timeFigure is row r's change of time judged j; shift is the group's
// change when it made a regression inconclusive (judge).
func timeFigure(c *Comparison, r CompareRow, name string, j verdict.Judgement, shift float64) gate.Figure {
	metric := basisMetric[r.Basis]
	ch := noChange(r.Change)
	ch.Significant = r.Significant
	if r.ChangeInterval != nil {
		ch.Lo, ch.Hi = r.ChangeInterval[0], r.ChangeInterval[1]
	}
	f := gate.Figure{Name: name, Metric: metric, Base: r.OldValue, Head: r.NewValue, Change: ch, Q: r.Q, Judgement: j,
		Speedup:    metric == "speed-up" || metric == "ratio to the baseline's marshal",
		Correction: Correction + " over every test of the comparison", Remedies: remedies}
	if j.Verdict != verdict.Inconclusive {
		return f
	}
	switch {
	case shift > 0:
		f.Note = fmt.Sprintf("the interval lies beyond it, but the other cells of %s %s moved %s together (their median), which a faster or slower process, not the code, may explain, and one process a side cannot tell which: replicate runs (run -processes 3 for both) would decide",
			r.Scenario, r.Op, verdict.Percent(shift, 0))
	case Unpaired(c, r):
		f.Note = "no figure of it was timed beside the baseline in the same run (no speed-up, no same-round samples of the baseline's marshal), and its ns/op across two runs follows the machine: replicate runs (run -processes 3) compare it between processes"
	case OneProcess(c) && r.ChangeInterval != nil && r.Significant && r.OutsideNoise && r.Basis != BasisRoundsRef && r.ChangeInterval[0] > j.Threshold:
		f.Note = "the interval lies beyond it, but with one process a side the comparison cannot see how far a codec's time moves between processes of the same code (sonic's speed-ups moved ±10% so): runs of three processes a side (run -processes 3 for both) would decide"
	case r.Basis == BasisRoundsRef && r.ChangeInterval != nil && r.Significant && r.ChangeInterval[0] > j.Threshold:
		f.Note = "the interval lies beyond it, but this cell (no speed-up) is paired with the baseline's marshal only by round, samples a round apart rather than bracketed, so noise that differed between the two runs moves it as much as the code: replicate runs (run -processes 3 for both) would decide"
	case r.ChangeInterval != nil && !r.OutsideNoise && r.Significant && r.ChangeInterval[0] > j.Threshold:
		f.Note = "the interval lies beyond it, but the two runs' own intervals overlap: replicate runs (run -processes 3, or several files a side) would decide"
	}
	return f
}

// Regressions returns the figures of c that got worse by more than max (a
// fraction: 0.05 is 5%), in row order: the regressed Figures. A cell's
// time regresses, by the measure it was compared by (CompareRow.Basis:
// its speed-up over the baseline, or its ns/op), when Judge says
// verdict.Regressed: the change's whole 95% interval lies beyond max, the
// change is significant after the correction (Q <= Alpha), and, with one
// run a side, it is outside the noise band (OutsideNoise: the new 95%
// interval lies wholly on the worse side of the old one, when both runs
// recorded intervals). A change whose interval straddles max is not a
// regression but inconclusive (Inconclusive). B/op and allocs/op regress
// when their change is significant and above max (only when both runs
// carry per-sample figures) and, with one process on a side, could not be
// that process's own (allocSeen; otherwise Inconclusive lists them); the
// encoded size when it grew by more than max (one exact value, no test);
// and a cell that round-tripped exactly in the old run but not in the new
// one regresses whatever max. The baseline's own cells do not regress by
// time when c is compared by speed-up: no figure within a run separates
// their change from the machine's (the calibration loop that normalises
// their ns/op follows the machine only roughly: with five builds beside
// the runs it read +127% on identical code, docs/findings/noisy.md); the
// table still shows and tests them, and their B/op, allocs/op, size and
// round trip gate as every cell's. A negative max is an error.
func Regressions(c *Comparison, max float64) ([]gate.Figure, error) {
	figs, err := Figures(c, max)
	return gate.Sort(figs).Regressed, err
}

// Inconclusive returns the figures of c that Figures finds inconclusive
// at max, in row order: the changes of time the run could not tell from
// a change beyond max, and B/op and allocs/op changes that are
// significant and above max but, with one process on a side, may be the
// process's own (allocSeen). A negative max is an error.
func Inconclusive(c *Comparison, max float64) ([]gate.Figure, error) {
	figs, err := Figures(c, max)
	return gate.Sort(figs).Inconclusive, err
}

// allocFigures returns row r's B/op and allocs/op changes that are
// significant and above max: regressed, or inconclusive when c has one
// process on a side and the change may be the process's (see allocSeen).
// Between replicate runs the test itself weighs the spread between
// processes, so every such change regresses.
func allocFigures(c *Comparison, r CompareRow, name string, max float64) []gate.Figure {
	var out []gate.Figure
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
		ch := noChange(m.ch.Change)
		ch.Significant = true
		f := gate.Figure{Name: name, Metric: m.name, Base: float64(m.old), Head: float64(m.new), Change: ch, Q: m.ch.Q,
			Judgement: verdict.Judgement{Verdict: verdict.Regressed, Threshold: max, Resolution: math.NaN()},
			Evidence:  "significant and beyond " + gate.LimitText(max)}
		if c.OldRuns < 2 || c.NewRuns < 2 {
			if why := allocSeen(r, m.ch.Change, m.proc, m.samples); why != "" {
				f.Judgement.Verdict, f.Note = verdict.Inconclusive, why
			}
		}
		out = append(out, f)
	}
	return out
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
