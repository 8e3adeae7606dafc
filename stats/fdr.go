package stats

import "sort"

// AdjustBH returns the Benjamini-Hochberg adjusted p-values (q-values) of
// ps, in the order of ps: with ps sorted ascending as p(1) ≤ … ≤ p(m),
// q(i) = min over j ≥ i of m·p(j)/j, capped at 1. A test is significant at
// false discovery rate alpha when its q ≤ alpha: the step-up procedure,
// which controls the false discovery rate (the expected share of flagged
// changes that are not real) at alpha for independent tests. ps is not
// modified; an empty ps gives an empty result.
//
// Source: Y. Benjamini and Y. Hochberg, "Controlling the False Discovery
// Rate: a Practical and Powerful Approach to Multiple Testing", Journal of
// the Royal Statistical Society B 57(1), 1995, pp. 289-300.
func AdjustBH(ps []float64) []float64 {
	m := len(ps)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return ps[order[a]] < ps[order[b]] })
	q := make([]float64, m)
	running := 1.0
	for rank := m; rank >= 1; rank-- {
		i := order[rank-1]
		v := ps[i] * float64(m) / float64(rank)
		if v < running {
			running = v
		}
		q[i] = running
	}
	return q
}
