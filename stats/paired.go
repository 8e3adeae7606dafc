package stats

import (
	moremath "github.com/aclements/go-moremath/stats"
)

// PairedChange summarises ratios measured in pairs, each one side's time
// over the other's taken at the same moment (a cell's per-pair speed-ups
// over the baseline; serbench ab's head ns/op over base ns/op per round):
// the median ratio, the bounds of its 95% distribution-free interval as
// Summarize gives them (0 for a bound too few ratios cannot give), and
// the two-sided p-value of the exact sign test that the ratios are as
// often above 1 as below it (SignTest). ratios is not modified.
func PairedChange(ratios []float64) (median, lo, hi, p float64) {
	median, lo, hi = Summarize(ratios)
	return median, lo, hi, SignTest(ratios)
}

// SignTest is the two-sided p-value of the exact sign test (Dixon and
// Mood, "The statistical sign test", JASA 41(236), 1946) that ratios
// (per-pair speed-ups) are as often above 1 as below it, ties (ratios of
// exactly 1) left out: the paired test of "the two sides take the same
// time". 1 when there is nothing to test.
func SignTest(ratios []float64) float64 {
	above, below := 0, 0
	for _, r := range ratios {
		switch {
		case r > 1:
			above++
		case r < 1:
			below++
		}
	}
	n := above + below
	if n == 0 {
		return 1
	}
	// Two-sided: twice the chance of as few as min(above, below) of n fair
	// coin flips going that way.
	return ClampP(2 * moremath.BinomialDist{N: n, P: 0.5}.CDF(float64(min(above, below))))
}
