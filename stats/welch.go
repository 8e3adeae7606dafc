package stats

import (
	"errors"
	"math"
	"slices"

	moremath "github.com/aclements/go-moremath/stats"
)

// WelchLogs compares two sets of positive values, one per replicate run
// (speed-ups or ns/op), by Welch's t-test (Welch, "The generalization of
// 'Student's' problem when several different population variances are
// involved", Biometrika 34, 1947; go-moremath's TwoSampleWelchTTest) on
// their logarithms, so that a ratio and its inverse weigh the same. old
// and new hold at least 2 values each. It returns the two-sided p-value
// and the change, positive when worse: for a figure where higher is
// better (a speed-up) the old geometric mean over the new one minus 1,
// otherwise the new over the old minus 1. When both sides have no spread
// at all, p is 0 if they differ and 1 if not; any other failure of the
// test gives p = 1. p is in [0, 1] (ClampP).
func WelchLogs(old, new []float64, higherIsBetter bool) (p, change float64) {
	lo, ln := logs(old), logs(new)
	d := moremath.Mean(ln) - moremath.Mean(lo)
	if higherIsBetter {
		d = -d
	}
	change = math.Expm1(d)
	res, err := moremath.TwoSampleWelchTTest(moremath.Sample{Xs: lo}, moremath.Sample{Xs: ln}, moremath.LocationDiffers)
	switch {
	case errors.Is(err, moremath.ErrZeroVariance):
		if d == 0 {
			return 1, 0
		}
		return 0, change
	case err != nil:
		return 1, change
	}
	return ClampP(res.P), change
}

// WelchCounts is WelchLogs for counts per replicate run that may be 0
// (B/op, allocs/op): the test runs on the values plus one, so that a zero
// stays a value; the change is the ratio of the arithmetic means, minus 1
// (0 when the old mean is 0).
func WelchCounts(old, new []float64) (p, change float64) {
	o, n := make([]float64, len(old)), make([]float64, len(new))
	for i, x := range old {
		o[i] = x + 1
	}
	for i, x := range new {
		n[i] = x + 1
	}
	p, _ = WelchLogs(o, n, false)
	if m := moremath.Mean(old); m > 0 {
		change = moremath.Mean(new)/m - 1
	}
	return p, change
}

func logs(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Log(x)
	}
	return out
}

// WelchLogsInterval is the confidence interval (confidence in (0, 1),
// 0.95 for 95%) of the change WelchLogs returns, from the same two sets
// of positive values: the Welch interval of the difference of the mean
// logarithms, d ± t·se with se² = s₁²/n₁ + s₂²/n₂ and t the quantile of
// Student's t at the Welch-Satterthwaite degrees of freedom (Welch 1947;
// Satterthwaite, "An approximate distribution of estimates of variance
// components", Biometrics Bulletin 2(6), 1946), mapped back as expm1.
// With no spread on either side the interval is the change itself. ok is
// false with fewer than 2 values on a side or a value that is not
// positive. old and new are not modified.
func WelchLogsInterval(old, new []float64, higherIsBetter bool, confidence float64) (lo, hi float64, ok bool) {
	if len(old) < 2 || len(new) < 2 || !(confidence > 0 && confidence < 1) {
		return 0, 0, false
	}
	for _, x := range append(slices.Clone(old), new...) {
		if !(x > 0) {
			return 0, 0, false
		}
	}
	lo0, ln := logs(old), logs(new)
	d := moremath.Mean(ln) - moremath.Mean(lo0)
	if higherIsBetter {
		d = -d
	}
	a := moremath.Variance(lo0) / float64(len(lo0))
	b := moremath.Variance(ln) / float64(len(ln))
	se := math.Sqrt(a + b)
	if se == 0 {
		return math.Expm1(d), math.Expm1(d), true
	}
	df := (a + b) * (a + b) / (a*a/float64(len(lo0)-1) + b*b/float64(len(ln)-1))
	t := moremath.InvCDF(moremath.TDist{V: df})(1 - (1-confidence)/2)
	return math.Expm1(d - t*se), math.Expm1(d + t*se), true
}
