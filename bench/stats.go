package bench

import (
	"bytes"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/stats"
)

// The statistics of a run's rows: the figures themselves are package
// stats's, so that the runner, package report (on samples read back from
// a file) and the command line compute them one way.

// DefaultReference is the ID of the reference row (codec.Reference)
// serbench ships, memmove: the floor of FloorRatio.
const DefaultReference = "memmove"

// referenceID returns the ID of the first codec of Kind Reference, or "".
func referenceID(codecs []codec.Codec) string {
	for _, c := range codecs {
		if c.Info().Kind == codec.Reference {
			return c.Info().ID
		}
	}
	return ""
}

// AddFloorRatios fills FloorRatio of every timed result from the reference
// row ref's median on the same scenario and op; results without one are
// left alone. An empty ref does nothing.
func AddFloorRatios(rows []results.Row, ref string) {
	if ref == "" {
		return
	}
	type key struct{ scenario, op string }
	floor := map[key]float64{}
	for _, r := range rows {
		if r.Codec == ref && r.Timed() && r.NsPerOp > 0 {
			floor[key{r.Scenario, r.Op}] = r.NsPerOp
		}
	}
	for i := range rows {
		r := &rows[i]
		if f, ok := floor[key{r.Scenario, r.Op}]; ok && r.Timed() {
			r.FloorRatio = r.NsPerOp / f
		}
	}
}

// AddSpeedups fills Speedup, SpeedupP and SpeedupLo..SpeedupHi of every
// timed result that baseline timed on the same scenario and op: from the
// result's PairRatios when it has them (stats.PairedChange: median, its
// interval, sign test), otherwise from the two sets of samples
// (stats.CompareSamples: ratio of medians, bootstrap interval,
// Mann-Whitney U-test). It reports whether baseline has any
// timed result.
func AddSpeedups(rows []results.Row, baseline string) bool {
	type key struct{ scenario, op string }
	base := map[key]int{}
	for i, r := range rows {
		if r.Codec == baseline && r.Timed() {
			base[key{r.Scenario, r.Op}] = i
		}
	}
	for i := range rows {
		r := &rows[i]
		bi, ok := base[key{r.Scenario, r.Op}]
		if !ok || !r.Timed() || r.NsPerOp == 0 {
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
	return len(base) > 0
}

// AddRegimes fills Regimes of every timed result that has none from its
// Samples (stats.DetectRegimes; documents written before serbench
// detected regimes have none).
func AddRegimes(rows []results.Row) {
	for i := range rows {
		if r := &rows[i]; r.Timed() && r.Regimes == nil {
			r.Regimes = stats.DetectRegimes(r.Samples)
		}
	}
}

// addSameBytes sets SameBytes on the marshal results whose round-trip
// output equals the baseline codec's on the same scenario.
func addSameBytes(rows []results.Row, cells []*cell, baseline string) {
	base := map[string][]byte{}
	for _, c := range cells {
		if c.Codec == baseline && c.Op == OpMarshal && c.encoded != nil {
			base[c.Scenario] = c.encoded
		}
	}
	for i, c := range cells {
		if b, ok := base[c.Scenario]; ok && c.Op == OpMarshal && c.encoded != nil && rows[i].OK {
			rows[i].SameBytes = bytes.Equal(b, c.encoded)
		}
	}
}
