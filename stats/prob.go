package stats

import "math"

// ClampP returns p limited to [0, 1]. The p-values this package computes
// are sums and products of floating-point terms (benchmath's U-test sums
// the probabilities of its exact distribution, then doubles the smaller
// tail), so a p-value of exactly 1 can come out one or two units in the
// last place above it (1.0000000000000002 for some orderings of three
// samples a side); ClampP puts it back. NaN stays NaN, for the caller to
// refuse.
func ClampP(p float64) float64 {
	if math.IsNaN(p) {
		return p
	}
	return min(max(p, 0), 1)
}
