package stats

import (
	"slices"

	"golang.org/x/perf/benchmath"
)

// UTest compares two sets of samples of one figure with the Mann-Whitney
// U-test (Mann and Whitney, "On a test of whether one of two random
// variables is stochastically larger than the other", Annals of
// Mathematical Statistics 18(1), 1947), exactly as benchstat does
// (golang.org/x/perf/benchmath's AssumeNothing.Compare): the comparison's
// P is the two-sided p-value, its Warnings say why a change could not be
// significant at alpha (too few samples), and its String and FormatDelta
// are benchstat's. P is in [0, 1] (ClampP: benchmath's sum can round a
// p-value of 1 just past it). old and new are not modified.
func UTest(old, new []float64, alpha float64) benchmath.Comparison {
	th := benchmath.Thresholds{CompareAlpha: alpha}
	cmp := benchmath.AssumeNothing.Compare(benchmath.NewSample(slices.Clone(old), &th), benchmath.NewSample(slices.Clone(new), &th))
	cmp.P = ClampP(cmp.P)
	return cmp
}
