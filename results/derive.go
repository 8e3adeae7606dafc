package results

import (
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/stats"
)

// Derived are the figures of a row that its own samples and the other rows
// of its run imply: nothing here is measured. Row embeds it, so its JSON
// keys sit among the row's (docs/reference.md, "JSON documents"). Only
// the run's constructors fill it (NewRun, Read, MergeProcesses, through
// one function, derive); the statistics themselves are package stats's.
type Derived struct {
	// Speedup is how many times faster than the baseline this cell is on
	// the same scenario and op: with PairRatios, their median (paired
	// sampling); otherwise the baseline's median ns/op divided by this
	// cell's. 0 when the baseline has no figure there.
	Speedup float64 `json:"speedup"`
	// SpeedupP is the p-value that this cell and the baseline take the
	// same time: with PairRatios, the exact two-sided sign test of the
	// per-pair speed-ups against 1; otherwise the Mann-Whitney U-test
	// between this cell's samples and the baseline's. Above 0.05 the
	// difference is not significant ("~"). 1 when there are too few
	// samples to tell.
	SpeedupP float64 `json:"speedup_p"`
	// SpeedupLo and SpeedupHi bound the 95% interval of Speedup: with
	// PairRatios, the distribution-free interval of their median (0 with
	// fewer than 6 pairs); otherwise a bootstrap of the ratio of medians
	// (see stats.RatioInterval), 0 when either side has fewer than 2 samples.
	// 0 when Speedup is 0.
	SpeedupLo float64 `json:"speedup_lo,omitempty"`
	SpeedupHi float64 `json:"speedup_hi,omitempty"`
	// FloorRatio is this cell's median ns/op divided by that of the
	// reference row (a codec of Kind Reference, memmove: copying the
	// scenario's encoded bytes) on the same scenario and op: how many times
	// the physical floor the cell costs. 0 when no reference row ran there.
	FloorRatio float64 `json:"floor_ratio,omitempty"`
	// BytesOverJSON is, on a compression op, CompressedBytes over the
	// uncompressed size the baseline codec (encoding/json) marshals the
	// same scenario to: 0.1 is a tenth of the JSON bytes. 0 when the
	// baseline did not marshal the scenario. Documents written before it
	// was renamed call it "json_ratio"; Read derives it again.
	BytesOverJSON float64 `json:"bytes_over_json,omitempty"`
	// Modes is set when Samples are bimodal, two clusters of speed rather
	// than one (see stats.DetectModes): the fast mode's median then
	// estimates the undisturbed machine better than NsPerOp. Nil
	// otherwise, and on cells with fewer than stats.MinModeSamples samples.
	// Documents written before it was renamed call it "regimes"; Read
	// derives it again.
	Modes *stats.Modes `json:"modes,omitempty"`
}

// DefaultReference is the ID of the reference row (codec.Reference)
// serbench ships, memmove: the floor of FloorRatio.
const DefaultReference = "memmove"

// DefaultBaseline is the codec speed-ups are relative to where a run names
// no other (bench.Options.Baseline), and in a benchmark file read back:
// encoding/json.
const DefaultBaseline = "encoding/json"

// derive is the one place that computes the Derived figures of the run's
// rows, from their measured fields: the speed-ups over run.Baseline, the
// floor ratios over the run's reference codec (the first of Kind
// Reference in Codecs, else DefaultReference), BytesOverJSON and Modes,
// then the run's own figures (analyze). Each figure is computed only where
// a row lacks it, so that a document read back keeps the figures it was
// written with (a SpeedupP it holds is clamped to [0, 1], stats.ClampP:
// files written before ClampP hold p-values rounding lifted past 1); the
// constructors of measured rows (NewRun, MergeProcesses, the benchmark
// format) start from rows with none.
func (run *Run) derive() {
	rows := run.Results
	for i := range rows {
		rows[i].SpeedupP = stats.ClampP(rows[i].SpeedupP)
	}
	addSpeedups(rows, run.Baseline)
	addFloorRatios(rows, run.reference())
	addBytesOverJSON(rows, run.Baseline)
	for i := range rows {
		if r := &rows[i]; r.Timed() && r.Modes == nil {
			r.Modes = stats.DetectModes(r.Samples)
		}
	}
	run.analyze()
}

// reference is the ID of the run's reference codec: the first codec of
// Kind Reference, else DefaultReference (a benchmark file lists no codecs).
func (run *Run) reference() string {
	for _, c := range run.Codecs {
		if c.Kind == codec.Reference {
			return c.ID
		}
	}
	return DefaultReference
}

// cellKey names the rows of one scenario and op.
type cellKey struct{ scenario, op string }

// addFloorRatios fills FloorRatio of every timed row that lacks one from
// the reference row ref's median on the same scenario and op.
func addFloorRatios(rows []Row, ref string) {
	floor := map[cellKey]float64{}
	for _, r := range rows {
		if r.Codec == ref && r.Timed() && r.NsPerOp > 0 {
			floor[cellKey{r.Scenario, r.Op}] = r.NsPerOp
		}
	}
	for i := range rows {
		r := &rows[i]
		if f, ok := floor[cellKey{r.Scenario, r.Op}]; ok && r.Timed() && r.FloorRatio == 0 {
			r.FloorRatio = r.NsPerOp / f
		}
	}
}

// addSpeedups fills Speedup, SpeedupP and SpeedupLo..SpeedupHi of every
// timed row that lacks a Speedup and whose baseline was timed on the same
// scenario and op: from the row's PairRatios when it has them
// (stats.PairedChange: median, its interval, sign test), otherwise from
// the two sets of samples (stats.CompareSamples: ratio of medians,
// bootstrap interval, Mann-Whitney U-test).
func addSpeedups(rows []Row, baseline string) {
	base := map[cellKey]int{}
	for i, r := range rows {
		if r.Codec == baseline && r.Timed() {
			base[cellKey{r.Scenario, r.Op}] = i
		}
	}
	for i := range rows {
		r := &rows[i]
		bi, ok := base[cellKey{r.Scenario, r.Op}]
		if !ok || !r.Timed() || r.NsPerOp == 0 || r.Speedup != 0 {
			continue
		}
		b := rows[bi]
		r.Speedup = b.NsPerOp / r.NsPerOp
		if bi == i {
			r.SpeedupP = 1
			continue
		}
		if len(r.PairRatios) > 0 {
			r.Speedup, r.SpeedupLo, r.SpeedupHi, r.SpeedupP = stats.PairedChange(r.PairRatios)
			continue
		}
		cmp := stats.CompareSamples(b.Samples, r.Samples)
		r.SpeedupP, r.SpeedupLo, r.SpeedupHi = cmp.P, cmp.Lo, cmp.Hi
	}
}

// addBytesOverJSON fills BytesOverJSON of the compression rows (those
// with CompressedBytes) that lack it: compressed bytes over the baseline
// codec's marshal SizeBytes on the same scenario, left 0 where the
// baseline has none.
func addBytesOverJSON(rows []Row, baseline string) {
	base := map[string]int{}
	for _, r := range rows {
		if r.Codec == baseline && r.Op == OpMarshal && r.SizeBytes > 0 {
			base[r.Scenario] = r.SizeBytes
		}
	}
	for i := range rows {
		r := &rows[i]
		if n := base[r.Scenario]; n > 0 && r.CompressedBytes > 0 && r.BytesOverJSON == 0 {
			r.BytesOverJSON = float64(r.CompressedBytes) / float64(n)
		}
	}
}
