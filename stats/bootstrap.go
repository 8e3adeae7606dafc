package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// Ratio compares two sets of samples of the same figure (ns/op).
type Ratio struct {
	// Value is median(num) / median(den); 0 when either is empty or
	// den's median is not positive.
	Value float64
	// Lo and Hi are Value's 95% interval, a percentile bootstrap of the
	// ratio of medians (as the speed-up's, see docs/reference.md); 0, 0
	// with fewer than 2 samples on a side.
	Lo, Hi float64
	// P is the p-value of the Mann-Whitney U-test that the two differ, as
	// benchstat computes it (golang.org/x/perf/benchmath); 1 when it
	// cannot tell.
	P float64
}

// CompareSamples returns the Ratio of num's median to den's, with its
// interval (RatioInterval) and p-value (UTest). It leaves num and den
// unchanged.
func CompareSamples(num, den []float64) Ratio {
	r := Ratio{P: 1}
	if len(num) == 0 || len(den) == 0 {
		return r
	}
	if d := sortedMedianInPlace(slices.Clone(den)); d > 0 {
		r.Value = sortedMedianInPlace(slices.Clone(num)) / d
	}
	r.Lo, r.Hi = RatioInterval(num, den)
	r.P = UTest(num, den, thresholds.CompareAlpha).P
	return r
}

// BootstrapResamples is the number of bootstrap resamples RatioInterval
// draws.
const BootstrapResamples = 1000

// RatioInterval returns the 95% interval of median(base)/median(xs) by a
// percentile bootstrap (Efron, "Bootstrap methods: another look at the
// jackknife", Annals of Statistics 7(1), 1979; the percentile interval of
// Efron and Tibshirani, "An Introduction to the Bootstrap", 1993, ch. 13):
// each of BootstrapResamples rounds draws both sample sets again with
// replacement and takes the ratio of their medians; the interval runs from
// the 2.5th to the 97.5th percentile of those ratios.
//
// Why a bootstrap rather than pairing the codec's sample with the
// baseline's of the same round: with adaptive sampling cells take
// different numbers of samples, so rounds past the first have no pair, and
// a round of the default matrix lasts about ten seconds, so two samples of
// one round are not close enough in time to share their disturbance
// (pairing gains nothing over independent samples). The generator is
// seeded from the samples themselves (whole nanoseconds, so the benchfmt
// text's rounding does not change the seed), so a run's intervals are
// reproducible from its JSON or benchfmt file. It returns 0, 0 when either
// side has fewer than 2 samples.
//
// base and xs are ns/op samples (any positive unit, the same on both
// sides); they are not modified.
func RatioInterval(base, xs []float64) (lo, hi float64) {
	if len(base) < 2 || len(xs) < 2 {
		return 0, 0
	}
	rng := rand.New(rand.NewPCG(uint64(len(base))<<32|uint64(len(xs)), uint64(math.Round(base[0]))^uint64(math.Round(xs[0]))))
	ratios := make([]float64, BootstrapResamples)
	bs, xss := make([]float64, len(base)), make([]float64, len(xs))
	for i := range ratios {
		for j := range bs {
			bs[j] = base[rng.IntN(len(base))]
		}
		for j := range xss {
			xss[j] = xs[rng.IntN(len(xs))]
		}
		mx := sortedMedianInPlace(xss)
		if mx <= 0 {
			return 0, 0
		}
		ratios[i] = sortedMedianInPlace(bs) / mx
	}
	sort.Float64s(ratios)
	return ratios[int(0.025*float64(len(ratios)-1)+0.5)], ratios[int(0.975*float64(len(ratios)-1)+0.5)]
}

// sortedMedianInPlace sorts xs (not empty) in place and returns its
// median.
func sortedMedianInPlace(xs []float64) float64 {
	sort.Float64s(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
