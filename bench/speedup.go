package bench

import (
	"bytes"
	"math"
	"math/rand/v2"
	"sort"
)

// speedupResamples is the number of bootstrap resamples per speed-up.
const speedupResamples = 1000

// speedupInterval returns the 95% interval of median(base)/median(xs) by a
// percentile bootstrap: each of speedupResamples rounds draws both sample
// sets again with replacement and takes the ratio of their medians; the
// interval runs from the 2.5th to the 97.5th percentile of those ratios.
//
// Why a bootstrap rather than pairing the codec's sample with the
// baseline's of the same round: with adaptive sampling cells take
// different numbers of samples, so rounds past the first have no pair, and
// a round of the default matrix lasts about ten seconds, so two samples of
// one round are not close enough in time to share their disturbance
// (pairing gains nothing over independent samples). The generator is
// seeded from the samples themselves (whole nanoseconds, so the benchfmt
// text's rounding does not change the seed), so a run's intervals are
// reproducible from its JSON or benchfmt file. It returns 0, 0 when either side has fewer
// than 2 samples.
func speedupInterval(base, xs []float64) (lo, hi float64) {
	if len(base) < 2 || len(xs) < 2 {
		return 0, 0
	}
	rng := rand.New(rand.NewPCG(uint64(len(base))<<32|uint64(len(xs)), uint64(math.Round(base[0]))^uint64(math.Round(xs[0]))))
	ratios := make([]float64, speedupResamples)
	bs, xss := make([]float64, len(base)), make([]float64, len(xs))
	for i := range ratios {
		for j := range bs {
			bs[j] = base[rng.IntN(len(base))]
		}
		for j := range xss {
			xss[j] = xs[rng.IntN(len(xs))]
		}
		mx := median(xss)
		if mx <= 0 {
			return 0, 0
		}
		ratios[i] = median(bs) / mx
	}
	sort.Float64s(ratios)
	return ratios[int(0.025*float64(len(ratios)-1)+0.5)], ratios[int(0.975*float64(len(ratios)-1)+0.5)]
}

// median sorts xs in place and returns its median.
func median(xs []float64) float64 {
	sort.Float64s(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// addSameBytes sets SameBytes on the marshal results whose round-trip
// output equals the baseline codec's on the same scenario.
func addSameBytes(results []Result, cells []*cell, baseline string) {
	base := map[string][]byte{}
	for _, c := range cells {
		if c.Codec == baseline && c.Op == OpMarshal && c.encoded != nil {
			base[c.Scenario] = c.encoded
		}
	}
	for i, c := range cells {
		if b, ok := base[c.Scenario]; ok && c.Op == OpMarshal && c.encoded != nil && results[i].OK {
			results[i].SameBytes = bytes.Equal(b, c.encoded)
		}
	}
}
