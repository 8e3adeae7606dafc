package bench

import (
	"slices"

	"golang.org/x/perf/benchmath"

	"github.com/serbench/serbench/codec"
)

// The statistics of a run, in one place: the runner uses them on its
// samples and package report on samples read back from a file, so a saved
// run shows the same figures as the run that made it.

var thresholds = benchmath.DefaultThresholds

// Summarize returns the median of samples and the bounds of its 95%
// confidence interval, as benchstat computes them
// (golang.org/x/perf/benchmath, no distribution assumed). A bound that
// cannot be had from so few samples is 0.
func Summarize(samples []float64) (median, lo, hi float64) {
	s := summarize(samples)
	return s.Center, finite(s.Lo), finite(s.Hi)
}

// summarize leaves xs unchanged: benchmath.NewSample sorts its argument in
// place, and a cell's samples must stay in the order taken (their order is
// what drift and regime figures read, and it matches the B/op and
// allocs/op of each sample).
func summarize(xs []float64) benchmath.Summary {
	return benchmath.AssumeNothing.Summary(benchmath.NewSample(slices.Clone(xs), &thresholds), 0.95)
}

func finite(x float64) float64 {
	if x != x || x > 1e300 || x < -1e300 {
		return 0
	}
	return x
}

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
func AddFloorRatios(results []Result, ref string) {
	if ref == "" {
		return
	}
	type key struct{ scenario, op string }
	floor := map[key]float64{}
	for _, r := range results {
		if r.Codec == ref && r.Timed() && r.NsPerOp > 0 {
			floor[key{r.Scenario, r.Op}] = r.NsPerOp
		}
	}
	for i := range results {
		r := &results[i]
		if f, ok := floor[key{r.Scenario, r.Op}]; ok && r.Timed() {
			r.FloorRatio = r.NsPerOp / f
		}
	}
}

// AddSpeedups fills Speedup, SpeedupP and SpeedupLo..SpeedupHi of every
// timed result that baseline timed on the same scenario and op: from the
// result's PairRatios when it has them (median, its interval, sign test),
// otherwise from the two sets of samples (ratio of medians, bootstrap
// interval, Mann-Whitney U-test). It reports whether baseline has any
// timed result.
func AddSpeedups(results []Result, baseline string) bool {
	type key struct{ scenario, op string }
	base := map[key]int{}
	for i, r := range results {
		if r.Codec == baseline && r.Timed() {
			base[key{r.Scenario, r.Op}] = i
		}
	}
	for i := range results {
		r := &results[i]
		bi, ok := base[key{r.Scenario, r.Op}]
		if !ok || !r.Timed() || r.NsPerOp == 0 {
			continue
		}
		b := results[bi]
		r.Speedup = b.NsPerOp / r.NsPerOp
		if bi == i {
			r.SpeedupP = 1
			continue
		}
		if len(r.PairRatios) > 0 {
			r.Speedup, r.SpeedupLo, r.SpeedupHi, r.SpeedupP = PairedChange(r.PairRatios)
			continue
		}
		cmp := CompareSamples(b.Samples, r.Samples)
		r.SpeedupP, r.SpeedupLo, r.SpeedupHi = cmp.P, cmp.Lo, cmp.Hi
	}
	return len(base) > 0
}

// TargetHalfWidth is the half-width that adaptive sampling holds to its
// target, as a fraction: the speed-up's (its larger side over Speedup) for
// a cell sampled in pairs with the baseline, ns/op's (HalfWidth) for every
// other cell. ok is false when there is no interval yet.
func (r Result) TargetHalfWidth() (hw float64, ok bool) {
	if len(r.PairRatios) > 0 {
		return ratioHalfWidth(r.Speedup, r.SpeedupLo, r.SpeedupHi)
	}
	if r.NsPerOpLo == 0 || r.NsPerOpHi == 0 {
		return 0, false
	}
	return r.HalfWidth, true
}
