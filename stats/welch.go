package stats

import (
	"errors"
	"math"

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
