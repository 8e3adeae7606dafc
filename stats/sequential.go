package stats

import (
	"math"
	"slices"

	moremath "github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchmath"
)

// SpendOBF is the type I error spent by information fraction t (the
// share of the largest planned sample taken so far, in [0, 1]) by the
// alpha-spending function of O'Brien-Fleming type of Lan and DeMets,
// α(t) = 2 − 2Φ(z₁₋α/₂ / √t), two-sided (K. K. G. Lan and D. L. DeMets,
// "Discrete sequential boundaries for clinical trials", Biometrika 70(3),
// 1983, pp. 659-663; P. C. O'Brien and T. R. Fleming, "A multiple testing
// procedure for clinical trials", Biometrics 35(3), 1979). It spends
// almost nothing at the first looks and α at t = 1; 0 for t ≤ 0, alpha
// for t ≥ 1.
func SpendOBF(alpha, t float64) float64 {
	switch {
	case t <= 0:
		return 0
	case t >= 1:
		return alpha
	}
	z := moremath.StdNormal.InvCDF(1 - alpha/2)
	return 2 - 2*moremath.StdNormal.CDF(z/math.Sqrt(t))
}

// LookConfidence is the confidence of the interval to judge at a look at
// n samples, the previous look having been at prev (0 for the first), of
// a sequential procedure planned for at most max samples with overall
// error rate alpha: 1 − (SpendOBF(alpha, n/max) − SpendOBF(alpha,
// prev/max)). Each look spends its own increment of alpha, and by the
// union bound the chance that any look's interval misses the true value
// is at most their sum, alpha, whatever the correlation between looks
// (Bonferroni over the looks: conservative, and valid for looks at any
// n, chosen as the data come in, as long as max is fixed before the
// first look). A look beyond max spends nothing: confidence 1.
func LookConfidence(alpha float64, n, prev, max int) float64 {
	if max <= 0 {
		return 1
	}
	return 1 - (SpendOBF(alpha, float64(n)/float64(max)) - SpendOBF(alpha, float64(prev)/float64(max)))
}

// FinalLookConfidence is the confidence of the interval to judge at the
// last look of the procedure LookConfidence describes, the previous look
// having been at prev samples of the max planned: 1 − (alpha −
// SpendOBF(alpha, prev/max)), all of alpha that the earlier looks left.
// A procedure that stops before max (its time ran out) has its last look
// at information fraction 1, as Lan and DeMets define the fraction (the
// information so far over that at the final analysis), so that the
// error it may spend is alpha in all, not only the share planned for
// that many samples; by the union bound the looks' increments still sum
// to alpha.
func FinalLookConfidence(alpha float64, prev, max int) float64 {
	if max <= 0 {
		return 1 - alpha
	}
	return 1 - (alpha - SpendOBF(alpha, float64(prev)/float64(max)))
}

// PairedChangeAt is PairedChange's median and interval at the given
// confidence (in (0, 1)) instead of 95%: benchmath's distribution-free
// interval of the median. A bound that so few ratios cannot give at that
// confidence is 0. ratios is not modified.
func PairedChangeAt(ratios []float64, confidence float64) (median, lo, hi float64) {
	s := benchmath.AssumeNothing.Summary(benchmath.NewSample(slices.Clone(ratios), &thresholds), confidence)
	return s.Center, finite(s.Lo), finite(s.Hi)
}
