package stats

// PlateauStart finds where a throughput plateau starts in figures at
// increasing sizes: mbps are medians (MB/s, or any throughput) and hi the
// upper ends of their 95% intervals (same length; hi[i] ≥ mbps[i]). The
// plateau starts at the first index from which every figure is, with its
// interval, within tolerance (a fraction: 0.1 for 10%) of the best median,
// so that noise alone never ends a plateau. best is the index of the best
// median (the first of equals). from is len(mbps) when the last size is
// itself out of the tolerance (throughput falls again at the large end:
// no size has every larger one within it).
func PlateauStart(mbps, hi []float64, tolerance float64) (from, best int) {
	for i, x := range mbps {
		if x > mbps[best] {
			best = i
		}
	}
	from = len(mbps)
	for from > 0 && max(hi[from-1], mbps[from-1]) >= (1-tolerance)*mbps[best] {
		from--
	}
	return from, best
}
