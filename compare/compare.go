package compare

import (
	"fmt"
	"strings"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/stats"
	"github.com/serbench/serbench/verdict"
)

// DefaultAlpha is the significance level of Compare when none is given,
// benchstat's default.
const DefaultAlpha = 0.05

// CompareOptions configure Compare. The zero value means the defaults.
type CompareOptions struct {
	// Alpha is the significance level of the Mann-Whitney U-test: a
	// change with p > Alpha is shown as "~". Default DefaultAlpha; range (0, 1).
	Alpha float64
	// OldName and NewName label the two documents (usually file names).
	OldName, NewName string
	// By is what a cell's time is compared by: BySpeedup (the default,
	// drift-proof) or ByNs (raw ns/op). Anything else is an error.
	By string
}

// Cell identifies one (codec, scenario, op) cell.
type Cell struct {
	Codec    string `json:"codec"`
	Scenario string `json:"scenario"`
	Op       string `json:"op"`
}

// Comparison is the cell-by-cell comparison of two runs.
type Comparison struct {
	OldName string  `json:"old_name"`
	NewName string  `json:"new_name"`
	OldEnv  env.Env `json:"old_env"`
	NewEnv  env.Env `json:"new_env"`
	Alpha   float64 `json:"alpha"`
	// By is CompareOptions.By in effect: BySpeedup or ByNs.
	By string `json:"by"`
	// Baseline is the codec speed-ups are over (the old run's
	// Document.Baseline, results.DefaultBaseline when it records none).
	Baseline string `json:"baseline"`
	// Basis is one line naming what the rows were compared by, as the
	// text formats print it: "compared by speed-up over encoding/json
	// within each run (drift-proof); ...".
	Basis string `json:"basis"`
	// OldRuns and NewRuns are the numbers of replicate runs of each side
	// when CompareRuns tested between runs; zero otherwise.
	OldRuns int `json:"old_runs,omitempty"`
	NewRuns int `json:"new_runs,omitempty"`
	// EnvDiff is the first field in which the runs' environments differ
	// so that their timings are not comparable (see DiffEnv); nil when
	// they agree.
	EnvDiff *EnvDiff `json:"env_diff,omitempty"`
	// Correction names the multiple-comparison correction applied to the
	// p-values before they are held against Alpha (the constant Correction).
	Correction string `json:"correction"`
	// Toolchains is one line when the runs were built by different Go
	// toolchains or ran different encoding/json engines (ToolchainNote),
	// omitted when they agree.
	Toolchains string `json:"toolchains,omitempty"`
	// Rows holds the cells present in both runs, in the old run's order.
	Rows []CompareRow `json:"rows"`
	// OnlyOld and OnlyNew list the cells present in one run only.
	OnlyOld []Cell `json:"only_old"`
	OnlyNew []Cell `json:"only_new"`
	// Geomean holds one row per scenario (in row order) and operation, as
	// benchstat's geomean row: the geometric means of the old and the new
	// median ns/op over the cells compared in both runs.
	Geomean []GeomeanRow `json:"geomean"`
	// Gate is the regression gate the rows were judged by (ApplyGate),
	// nil when none was.
	Gate *Gate `json:"gate,omitempty"`
}

// GeomeanRow summarises the compared cells of one scenario and operation.
type GeomeanRow struct {
	Scenario string `json:"scenario"`
	Op       string `json:"op"`
	// N is the number of cells the means are taken over.
	N int `json:"n"`
	// Old and New are geometric means of median ns/op.
	Old float64 `json:"old_ns_per_op"`
	New float64 `json:"new_ns_per_op"`
	// Change is New over Old, minus 1.
	Change float64 `json:"change"`
	// ByChange is the geometric mean of the cells' CompareRow.Change
	// (each as 1+Change), minus 1: the change of the measure compared by,
	// Change itself with ByNs.
	ByChange float64 `json:"by_change"`
}

// CompareRow is one cell present in both runs.
type CompareRow struct {
	Cell
	Old results.Row `json:"old"`
	New results.Row `json:"new"`
	// Compared is true when both cells have samples, so that the medians
	// could be compared; the fields below are set only then.
	Compared bool `json:"compared"`
	// Basis is what the cell was compared by: BasisPairs, BasisRounds or
	// BasisRuns (its speed-up over the baseline), BasisMeter, BasisNs or
	// BasisRunsNs (its ns/op). OldValue and NewValue are geometric means
	// over the runs with BasisRuns and BasisRunsNs.
	Basis string `json:"basis,omitempty"`
	// OldValue and NewValue are the medians compared: speed-ups, or ns/op
	// (with BasisMeter the new one rescaled to the old run's machine
	// speed).
	OldValue float64 `json:"old_value,omitempty"`
	NewValue float64 `json:"new_value,omitempty"`
	// Change is the change of the compared measure, positive when the cell
	// got worse: for a speed-up the old one over the new one, minus 1 (0.1:
	// the cell takes 10% more time relative to the baseline than it did);
	// for ns/op the new median over the old one, minus 1 (-0.25: 25% less
	// time per operation).
	Change float64 `json:"change"`
	// ChangeInterval is the 95% interval of Change, [lo, hi]: with one run
	// a side a percentile bootstrap of the ratio of the compared medians
	// (stats.RatioInterval) from the same samples as the test, between
	// replicate runs the Welch interval of the geometric means
	// (stats.WelchLogsInterval); nil when there are too few samples. The
	// gate's verdict (package verdict) is judged on it.
	ChangeInterval *[2]float64 `json:"change_interval,omitempty"`
	// Resolution is the smallest change the comparison could tell from
	// none: the larger distance from Change to a bound of ChangeInterval,
	// a fraction (0.04: ±4%); 0 without an interval. A gate below it
	// cannot read unchanged (verdict.Judgement.Resolution).
	Resolution float64 `json:"resolution,omitempty"`
	// Verdict is the verdict on the change of time at the gate's threshold
	// (Comparison.Gate): "regressed", "inconclusive", "unchanged" or
	// "improved", as Judge gives it; "" without a gate, and for a row
	// whose time does not gate (the baseline's own cells compared by
	// speed-up).
	Verdict verdict.Verdict `json:"verdict,omitempty"`
	// NsChange is the new median ns/op over the old one, minus 1, whatever
	// Basis: shown beside Change, not tested.
	NsChange float64 `json:"ns_change"`
	// OutsideNoise is true when the new 95% interval of the compared
	// measure lies wholly on the worse side of the old one, or either run
	// recorded no interval (Regressions requires it).
	OutsideNoise bool `json:"outside_noise,omitempty"`
	// P is the p-value of the Mann-Whitney U-test between the two sets of
	// samples of the compared measure (stats.UTest):
	// per-pair speed-ups, same-round sample ratios, or ns/op samples.
	P float64 `json:"p"`
	// Q is P adjusted for multiple comparisons (see Correction) over every
	// test of the comparison: ns/op, B/op and allocs/op of all cells.
	Q float64 `json:"q"`
	// Significant is Q <= Alpha; otherwise the change reads "~".
	Significant bool `json:"significant"`
	// Delta is the change as benchstat prints it: "-25.00%", or "~".
	Delta string `json:"delta"`
	// Stat is "p=0.002 n=6" (or "n=6+5" for unequal sample counts),
	// followed by the Basis unless it is BasisNs: "p=0.002 n=10 pairs".
	Stat string `json:"stat"`
	// Warnings are benchmath's reasons a change could not be significant,
	// such as too few samples.
	Warnings []string `json:"warnings,omitempty"`
	// Bytes and Allocs compare B/op and allocs/op the same way, from each
	// sample's figures (sample_bytes, sample_allocs); nil when either run
	// has only medians (files written before per-sample figures).
	Bytes  *MetricChange `json:"bytes_per_op_change,omitempty"`
	Allocs *MetricChange `json:"allocs_per_op_change,omitempty"`
	// SizeChanged is true when the encoded size differs: one value, so no
	// test is needed.
	SizeChanged bool `json:"size_changed,omitempty"`
}

// MetricChange is the comparison of one per-sample metric between two runs.
type MetricChange struct {
	P float64 `json:"p"`
	// Q is P adjusted as CompareRow.Q is.
	Q           float64 `json:"q"`
	Significant bool    `json:"significant"`
	// Change is the new median over the old one, minus 1; 0 when the old
	// median is 0.
	Change float64 `json:"change"`
	// Delta is benchstat's form: "-25.00%", "~", or "0.00%" for equal
	// medians.
	Delta string `json:"delta"`
}

// Compare matches the cells of two runs by (codec, scenario, op) and
// compares them by opts.By: with BySpeedup (the default) each cell's
// speed-up over its own run's baseline, tested on per-pair speed-ups or
// same-round sample ratios, and the baseline's own cells by ns/op
// normalised by the calibration loop (see BySpeedup and the Basis
// constants); with ByNs raw ns/op, as benchstat does. Each test is a
// Mann-Whitney U-test, and the p-values of all tests (with B/op and
// allocs/op, tested on their per-sample figures when both runs carry
// them) are corrected together (see Correction) and held against
// opts.Alpha. An Alpha out of range or an unknown By is an error.
func Compare(oldDoc, newDoc *results.Run, opts CompareOptions) (*Comparison, error) {
	if opts.Alpha == 0 {
		opts.Alpha = DefaultAlpha
	}
	if !(opts.Alpha > 0 && opts.Alpha < 1) {
		return nil, fmt.Errorf("report: invalid Alpha %v (range is (0, 1))", opts.Alpha)
	}
	if opts.By == "" {
		opts.By = BySpeedup
	}
	if opts.By != BySpeedup && opts.By != ByNs {
		return nil, fmt.Errorf("report: invalid By %q (want %s)", opts.By, strings.Join(CompareBys, " or "))
	}
	baseline := oldDoc.Baseline
	if baseline == "" {
		baseline = results.DefaultBaseline
	}
	c := &Comparison{OldName: opts.OldName, NewName: opts.NewName, OldEnv: oldDoc.Env, NewEnv: newDoc.Env,
		Alpha: opts.Alpha, By: opts.By, Baseline: baseline, EnvDiff: DiffEnv(oldDoc, newDoc),
		Correction: Correction, Toolchains: ToolchainNote(oldDoc.Env, newDoc.Env)}
	key := func(r results.Row) Cell { return Cell{r.Codec, r.Scenario, r.Op} }
	newIdx := map[Cell]int{}
	for i, r := range newDoc.Results {
		newIdx[key(r)] = i
	}
	baseOf := func(doc *results.Run) map[Cell]results.Row {
		m := map[Cell]results.Row{}
		for _, b := range doc.Results {
			if b.Codec == baseline {
				m[Cell{Scenario: b.Scenario, Op: b.Op}] = b
			}
		}
		return m
	}
	baseOld, baseNew := baseOf(oldDoc), baseOf(newDoc)
	loopOld, loopNew := CalibrationLoopNs(oldDoc.Env), CalibrationLoopNs(newDoc.Env)
	seen := map[Cell]bool{}
	for _, o := range oldDoc.Results {
		k := key(o)
		seen[k] = true
		i, ok := newIdx[k]
		if !ok {
			c.OnlyOld = append(c.OnlyOld, k)
			continue
		}
		n := newDoc.Results[i]
		row := CompareRow{Cell: k, Old: o, New: n}
		if o.Timed() && n.Timed() {
			row.Compared = true
			bk := Cell{Scenario: k.Scenario, Op: k.Op}
			rk := Cell{Scenario: k.Scenario, Op: results.OpMarshal}
			s := measureSides(opts.By, o, n, baseOld[bk], baseNew[bk], baseOld[rk], baseNew[rk], k.Codec == baseline, loopOld, loopNew)
			s.test(&row, opts.Alpha)
			if o.NsPerOp > 0 {
				row.NsChange = n.NsPerOp/o.NsPerOp - 1
			}
			row.Bytes = compareMetric(o.SampleBytes, n.SampleBytes, opts.Alpha)
			row.Allocs = compareMetric(o.SampleAllocs, n.SampleAllocs, opts.Alpha)
			row.SizeChanged = o.SizeBytes != n.SizeBytes
		}
		c.Rows = append(c.Rows, row)
	}
	for _, n := range newDoc.Results {
		if !seen[key(n)] {
			c.OnlyNew = append(c.OnlyNew, key(n))
		}
	}
	correct(c.Rows, opts.Alpha)
	c.Geomean = geomeans(c.Rows)
	c.Basis = basisLine(c)
	return c, nil
}

// setInterval sets row's ChangeInterval to [lo, hi] and its Resolution.
func setInterval(row *CompareRow, lo, hi float64) {
	row.ChangeInterval = &[2]float64{lo, hi}
	row.Resolution = max(hi-row.Change, row.Change-lo)
}

// correct adjusts the p-values of every test in rows together (see
// Correction) and sets Q, Significant and, for a change that is no longer
// significant, Delta to "~".
func correct(rows []CompareRow, alpha float64) {
	type test struct {
		p, q  *float64
		sig   *bool
		delta *string
	}
	var tests []test
	for i := range rows {
		r := &rows[i]
		if !r.Compared {
			continue
		}
		tests = append(tests, test{&r.P, &r.Q, &r.Significant, &r.Delta})
		for _, m := range []*MetricChange{r.Bytes, r.Allocs} {
			if m != nil {
				tests = append(tests, test{&m.P, &m.Q, &m.Significant, &m.Delta})
			}
		}
	}
	ps := make([]float64, len(tests))
	for i, t := range tests {
		ps[i] = *t.p
	}
	for i, q := range stats.AdjustBH(ps) {
		t := tests[i]
		*t.q = q
		*t.sig = q <= alpha
		if !*t.sig {
			*t.delta = "~"
		}
	}
}

// compareMetric compares two runs' per-sample values of one metric with the
// U-test, or returns nil when either has none.
func compareMetric(old, new []float64, alpha float64) *MetricChange {
	if len(old) == 0 || len(new) == 0 {
		return nil
	}
	cmp := stats.UTest(old, new, alpha)
	oc, nc := stats.Median(old), stats.Median(new)
	m := &MetricChange{P: cmp.P, Significant: cmp.P <= alpha, Delta: cmp.FormatDelta(oc, nc)}
	if oc != 0 {
		m.Change = nc/oc - 1
	}
	return m
}

// geomeans returns the geometric means of the compared rows' medians per
// (scenario, op), in the rows' order.
func geomeans(rows []CompareRow) []GeomeanRow {
	type key struct{ scenario, op string }
	type acc struct {
		old, new, changes []float64
	}
	var order []key
	sums := map[key]*acc{}
	for _, r := range rows {
		if !r.Compared || r.Old.NsPerOp <= 0 || r.New.NsPerOp <= 0 {
			continue
		}
		k := key{r.Scenario, r.Op}
		a := sums[k]
		if a == nil {
			a = &acc{}
			sums[k] = a
			order = append(order, k)
		}
		a.old = append(a.old, r.Old.NsPerOp)
		a.new = append(a.new, r.New.NsPerOp)
		a.changes = append(a.changes, r.Change)
	}
	out := make([]GeomeanRow, 0, len(order))
	for _, k := range order {
		a := sums[k]
		g := GeomeanRow{Scenario: k.scenario, Op: k.op, N: len(a.old), Old: stats.GeoMean(a.old), New: stats.GeoMean(a.new)}
		g.Change = g.New/g.Old - 1
		g.ByChange = stats.GeoMeanChange(a.changes)
		out = append(out, g)
	}
	return out
}

// Tests counts the U-tests of c (ns/op, B/op, allocs/op), the family the
// correction is taken over.
func (c *Comparison) Tests() int {
	n := 0
	for _, r := range c.Rows {
		if !r.Compared {
			continue
		}
		n++
		if r.Bytes != nil {
			n++
		}
		if r.Allocs != nil {
			n++
		}
	}
	return n
}
