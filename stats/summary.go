package stats

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"golang.org/x/perf/benchmath"
)

// thresholds are benchstat's defaults (benchmath.DefaultThresholds).
var thresholds = benchmath.DefaultThresholds

// Summarize returns the median of samples and the bounds of its 95%
// confidence interval, as benchstat computes them
// (golang.org/x/perf/benchmath's AssumeNothing: the order-statistic
// interval of the median, no distribution assumed). A bound that cannot
// be had from so few samples (fewer than 6) is 0. samples is not
// modified.
func Summarize(samples []float64) (median, lo, hi float64) {
	s := summary(samples)
	return s.Center, finite(s.Lo), finite(s.Hi)
}

// summary leaves xs unchanged: benchmath.NewSample sorts its argument in
// place, and a cell's samples must stay in the order taken (their order is
// what drift and regime figures read, and it matches the B/op and
// allocs/op of each sample).
func summary(xs []float64) benchmath.Summary {
	return benchmath.AssumeNothing.Summary(benchmath.NewSample(slices.Clone(xs), &thresholds), 0.95)
}

func finite(x float64) float64 {
	if x != x || x > 1e300 || x < -1e300 {
		return 0
	}
	return x
}

// Median returns the median of xs as Summarize does, 0 for an empty xs.
// xs is not modified.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return summary(xs).Center
}

// HalfWidth returns the larger side of the 95% interval of samples'
// median (Summarize) as a fraction of the median: 0.03 for ±3%. ok is
// false, and hw 0, when there is no interval (fewer than 6 samples) or
// the median is not positive.
func HalfWidth(samples []float64) (hw float64, ok bool) {
	s := summary(samples)
	if s.Center <= 0 || math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) || math.IsNaN(s.Lo) || math.IsNaN(s.Hi) {
		return 0, false
	}
	return max(s.Hi/s.Center-1, 1-s.Lo/s.Center), true
}

// RatioHalfWidth is the larger side of the interval lo..hi of a ratio m
// as a fraction of m; ok is false without an interval (any of them not
// positive).
func RatioHalfWidth(m, lo, hi float64) (hw float64, ok bool) {
	if m <= 0 || lo <= 0 || hi <= 0 {
		return 0, false
	}
	return max(hi/m-1, 1-lo/m), true
}

// Quantile is the q-quantile (q in [0, 1]) of xs (not empty) by linear
// interpolation between the closest ranks (Hyndman and Fan 1996,
// definition 7, R's default). xs is not modified.
func Quantile(xs []float64, q float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	pos := q * float64(len(s)-1)
	i := int(pos)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (pos-float64(i))*(s[i+1]-s[i])
}

// NearestRank returns the q-quantile (q in (0, 1]) of sorted, a non-empty
// slice in ascending order, by the nearest-rank method (Hyndman and Fan
// 1996, definition 1): the smallest value with at least q·len(sorted)
// values at or below it. It is the method for percentiles of counts
// (message sizes in bytes), where an interpolated size would be one no
// message has.
func NearestRank[T cmp.Ordered](sorted []T, q float64) T {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}
