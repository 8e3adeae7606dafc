package compare

import (
	"fmt"
	"strings"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/stats"
)

// The measures of CompareOptions.By.
const (
	// BySpeedup, the default, compares each cell's speed-up over the run's
	// own baseline (Result.Speedup): both sides of that ratio were timed in
	// the same run, minutes apart at most, so a change of the machine's
	// speed between two runs cancels. The baseline's own cells, whose
	// speed-up is 1 by definition, and cells without a speed-up compare
	// their ns/op normalised by the run's calibration loop where both runs
	// recorded it (BasisMeter), their raw ns/op otherwise (BasisNs).
	BySpeedup = "speedup"
	// ByNs compares raw median ns/op, as benchstat does: right for two
	// runs on one quiet machine, wrong on a machine whose speed drifts (a
	// shared cloud VM), where every cell moves with the machine.
	ByNs = "ns"
)

// CompareBys lists the values of CompareOptions.By.
var CompareBys = []string{BySpeedup, ByNs}

// The bases of one row's test (CompareRow.Basis).
const (
	// BasisPairs: the speed-up, tested on the per-pair speed-ups of both
	// runs (Result.PairRatios).
	BasisPairs = "pairs"
	// BasisRounds: the speed-up, in runs (or cells) without per-pair
	// speed-ups, tested on the ratios of same-index samples: the
	// baseline's i-th ns/op sample over the cell's. serbench takes the
	// first Count samples round-robin over all cells (sample 1 of every
	// cell, then sample 2, ...), so the two samples of a ratio were taken
	// in the same round, seconds apart rather than a run apart.
	BasisRounds = "rounds"
	// BasisMeter: ns/op, the new run's rescaled to the old run's machine
	// speed by the calibration loop (env.Noise): new ns/op × (old
	// ProbeNs/Iterations) / (new ProbeNs/Iterations).
	BasisMeter = "meter"
	// BasisNs: raw ns/op (-by ns, or a cell without a speed-up in runs
	// without both calibration loops).
	BasisNs = "ns"
	// BasisRoundsRef: a cell with no speed-up (convert, say) in a single
	// run, against the baseline's marshal on the same scenario: the
	// baseline marshal's i-th ns/op sample over the cell's, both taken in
	// the same round, so that a change of the machine's speed between the
	// runs cancels as in BasisRounds.
	BasisRoundsRef = "rounds-ref"
)

// CalibrationLoopNs returns the time of one calibration loop iteration of
// a run (env.Noise: ProbeNs/Iterations), in ns, or 0 when the run did not
// record both its median timing and its iteration count (documents from
// before the count was recorded timed an unknown amount of work, possibly
// twice another run's). Compare (BasisMeter) and the results explorer
// (package site) normalise ns/op across runs by it: ns/op × (reference
// run's loop time) / (this run's loop time).
func CalibrationLoopNs(e env.Env) float64 {
	if e.Noise == nil || e.Noise.ProbeNs <= 0 || e.Noise.Iterations <= 0 {
		return 0
	}
	return e.Noise.ProbeNs / float64(e.Noise.Iterations)
}

// roundRatios returns base's i-th sample over r's, for every index both
// have, or nil when either has no samples.
func roundRatios(r, base results.Row) []float64 {
	n := min(len(r.Samples), len(base.Samples))
	out := make([]float64, 0, n)
	for i := range n {
		if r.Samples[i] > 0 {
			out = append(out, base.Samples[i]/r.Samples[i])
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// sides are what one row compares: the per-sample values of each run,
// their medians (Old, New: the values the change is taken between) and the
// bounds of their 95% intervals (0 when not recorded).
type sides struct {
	basis          string
	old, new       []float64
	oldVal, newVal float64
	oldLo, oldHi   float64
	newLo, newHi   float64
	higherIsBetter bool
}

// measureSides chooses what row o → n is compared by (see BySpeedup) and
// returns its values. baseOld and baseNew are the baseline's cells of the
// same scenario and op in each run, refOld and refNew its marshal cells of
// the same scenario (zero Results when absent); loopOld
// and loopNew the runs' calibration loop iteration times (0: unknown).
func measureSides(by string, o, n, baseOld, baseNew, refOld, refNew results.Row, isBase bool, loopOld, loopNew float64) sides {
	if by == BySpeedup && !isBase && o.Speedup > 0 && n.Speedup > 0 {
		s := sides{oldVal: o.Speedup, newVal: n.Speedup, higherIsBetter: true,
			oldLo: o.SpeedupLo, oldHi: o.SpeedupHi, newLo: n.SpeedupLo, newHi: n.SpeedupHi}
		if len(o.PairRatios) > 0 && len(n.PairRatios) > 0 {
			s.basis, s.old, s.new = BasisPairs, o.PairRatios, n.PairRatios
			return s
		}
		if ro, rn := roundRatios(o, baseOld), roundRatios(n, baseNew); ro != nil && rn != nil {
			s.basis, s.old, s.new = BasisRounds, ro, rn
			return s
		}
	}
	if by == BySpeedup && !isBase && !(o.Speedup > 0 && n.Speedup > 0) && refOld.NsPerOp > 0 && refNew.NsPerOp > 0 && o.NsPerOp > 0 && n.NsPerOp > 0 {
		if ro, rn := roundRatios(o, refOld), roundRatios(n, refNew); ro != nil && rn != nil {
			// The point estimate is the median of the same ratios the
			// test and the interval use: the ratio of the two cells'
			// medians takes in samples (the baseline's later rounds)
			// that have no pair, and on a busy machine it lay outside
			// the interval (+1.4% beside [+32%, +289%]).
			return sides{basis: BasisRoundsRef, old: ro, new: rn, higherIsBetter: true,
				oldVal: stats.Median(ro), newVal: stats.Median(rn)}
		}
	}
	s := sides{basis: BasisNs, old: o.Samples, new: n.Samples, oldVal: o.NsPerOp, newVal: n.NsPerOp,
		oldLo: o.NsPerOpLo, oldHi: o.NsPerOpHi, newLo: n.NsPerOpLo, newHi: n.NsPerOpHi}
	if by == BySpeedup && loopOld > 0 && loopNew > 0 {
		f := loopOld / loopNew
		s.basis, s.new, s.newVal, s.newLo, s.newHi = BasisMeter, scale(n.Samples, f), n.NsPerOp*f, n.NsPerOpLo*f, n.NsPerOpHi*f
	}
	return s
}

func scale(xs []float64, f float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * f
	}
	return out
}

// change is the row's change with positive meaning worse: for a speed-up
// the old over the new one minus 1 (the cell got slower relative to the
// baseline), for a time the new over the old minus 1; 0 when the
// denominator is not positive.
func (s sides) change() float64 {
	num, den := s.newVal, s.oldVal
	if s.higherIsBetter {
		num, den = den, num
	}
	if den <= 0 {
		return 0
	}
	return num/den - 1
}

// aboveNoise reports whether the new 95% interval lies wholly on the worse
// side of the old one, or either run recorded no interval.
func (s sides) aboveNoise() bool {
	if s.higherIsBetter {
		return s.oldLo <= 0 || s.newHi <= 0 || s.newHi < s.oldLo
	}
	return s.oldHi <= 0 || s.newLo <= 0 || s.newLo > s.oldHi
}

// test runs the Mann-Whitney U-test of s's samples and fills row's test
// fields (Basis, Change, P, Delta, Stat, Warnings, OldValue, NewValue).
func (s sides) test(row *CompareRow, alpha float64) {
	cmp := stats.UTest(s.old, s.new, alpha)
	row.Basis = s.basis
	row.OldValue, row.NewValue = s.oldVal, s.newVal
	row.Change = s.change()
	row.P = cmp.P
	row.Significant = cmp.P <= alpha
	row.Delta = delta(row.Significant, row.Change)
	row.Stat = cmp.String()
	if s.basis != BasisNs {
		row.Stat += " " + s.basis
	}
	row.OutsideNoise = s.aboveNoise()
	// The interval of the ratio the change is taken from: old over new for
	// a speed-up, new over old for a time.
	num, den := s.new, s.old
	if s.higherIsBetter {
		num, den = s.old, s.new
	}
	if lo, hi := stats.RatioInterval(num, den); lo > 0 && hi > 0 {
		setInterval(row, lo-1, hi-1)
	}
	for _, w := range cmp.Warnings {
		row.Warnings = append(row.Warnings, w.Error())
	}
}

// basisLine is Comparison.Basis: one line naming what c's rows were
// compared by.
func basisLine(c *Comparison) string {
	if c.By == ByNs {
		return "compared by raw ns/op (-by ns): a change of the machine's speed between the runs shows in every cell"
	}
	count := map[string]int{}
	other := false // a row by ns/op that is not the baseline's
	for _, r := range c.Rows {
		if !r.Compared {
			continue
		}
		count[r.Basis]++
		if (r.Basis == BasisMeter || r.Basis == BasisNs) && r.Codec != c.Baseline {
			other = true
		}
	}
	parts := []string{fmt.Sprintf("compared by speed-up over %s within each run (drift-proof)", c.Baseline)}
	if n := count[BasisRuns] + count[BasisRunsNs] + count[BasisRunsRef]; n > 0 {
		line := fmt.Sprintf("compared between processes (%d old, %d new: separate runs, or the processes of run -processes): each run's speed-up over %s (drift-proof), cells without one (convert) by each run's %s marshal ns/op over theirs (runs-ref, drift-proof), %s's own cells by each run's ns/op normalised by its calibration loop (raw where a run lacks it); Welch's t-test on their logarithms, so that a codec whose speed moves from process to process is not flagged for it",
			c.OldRuns, c.NewRuns, c.Baseline, c.Baseline, c.Baseline)
		rest := 0
		for _, r := range c.Rows {
			if r.Compared && r.Basis != BasisRuns && r.Basis != BasisRunsNs && r.Basis != BasisRunsRef {
				rest++
			}
		}
		if rest > 0 {
			line += fmt.Sprintf("; %d cells not timed in every run compared within the first runs", rest)
		}
		return line
	}
	if n := count[BasisRounds]; n > 0 {
		if count[BasisPairs] == 0 {
			parts[0] += ", tested on same-round sample ratios (rounds: the runs have no per-pair speed-ups)"
		} else {
			parts[0] += fmt.Sprintf(", tested on per-pair speed-ups, %d cells without them on same-round sample ratios (rounds)", n)
		}
	}
	own := c.Baseline + "'s own cells"
	if other {
		own += " and cells without a speed-up"
	}
	switch {
	case count[BasisMeter] > 0:
		parts = append(parts, own+" by ns/op normalised by the calibration loop")
	case count[BasisNs] > 0:
		parts = append(parts, own+" by raw ns/op (not drift-proof: the runs do not both record the calibration loop's iteration time)")
	}
	return strings.Join(parts, "; ")
}
