package stats

import "math"

// GeoMean returns the geometric mean of xs, exp of the mean of log(x), as
// benchstat's geomean row; 0 for an empty xs. Every x must be positive
// (a zero gives 0, a negative NaN).
func GeoMean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return math.Exp(meanOf(xs, math.Log))
}

// meanOf returns the mean of f(x) over xs (not empty).
func meanOf(xs []float64, f func(float64) float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += f(x)
	}
	return sum / float64(len(xs))
}

// GeoMeanInterval returns the geometric mean of ratios xs (speed-ups, all
// positive, at least one) and the bounds of its 95% interval, combined
// from each ratio's interval lo[i]..hi[i] in log space as independent
// normal errors: each ratio's standard error is taken as its log-interval
// width over 2×1.96, and the mean's as the root of their summed squares
// over len(xs). glo and ghi are 0 when any ratio lacks an interval (a
// bound not positive). lo and hi have the length of xs.
func GeoMeanInterval(xs, lo, hi []float64) (g, glo, ghi float64) {
	var sumLog, sumVar float64
	intervals := true
	for i, x := range xs {
		sumLog += math.Log(x)
		if lo[i] > 0 && hi[i] > 0 {
			se := (math.Log(hi[i]) - math.Log(lo[i])) / (2 * 1.96)
			sumVar += se * se
		} else {
			intervals = false
		}
	}
	n := float64(len(xs))
	mean := sumLog / n
	g = math.Exp(mean)
	if intervals {
		se := math.Sqrt(sumVar) / n
		glo, ghi = math.Exp(mean-1.96*se), math.Exp(mean+1.96*se)
	}
	return g, glo, ghi
}

// GeoMeanChange is the geometric mean of 1+c over changes (each a ratio
// minus 1, so -0.25 for 25% less), minus 1: the typical change of a set
// of cells. It works on log1p and expm1 so that small changes keep their
// digits. 0 for no changes.
func GeoMeanChange(changes []float64) float64 {
	if len(changes) == 0 {
		return 0
	}
	return math.Expm1(meanOf(changes, math.Log1p))
}
