package bench

import (
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

func summarize(xs []float64) benchmath.Summary {
	return benchmath.AssumeNothing.Summary(benchmath.NewSample(xs, &thresholds), 0.95)
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

// AddSpeedups fills Speedup, SpeedupP (Mann-Whitney U-test against the
// baseline's samples) and the bootstrap interval SpeedupLo..SpeedupHi of
// every timed result from baseline's result on the same scenario and op. It
// reports whether baseline has any timed result.
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
		cmp := CompareSamples(b.Samples, r.Samples)
		r.SpeedupP, r.SpeedupLo, r.SpeedupHi = cmp.P, cmp.Lo, cmp.Hi
	}
	return len(base) > 0
}
