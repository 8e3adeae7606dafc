package bench

import "math"

// Paired sampling.
//
// A speed-up compares a codec's samples with the baseline's. Taken apart
// (all of one cell, then all of the next, or round-robin over a matrix whose
// round lasts seconds), the two sides see different machines: on a shared
// cloud VM the speed drifts, and where two vCPUs are hyperthreads of one
// core the codec runs at one of two speeds depending on what the sibling
// does. So every sample of a cell that has a baseline cell (same scenario
// and op) is taken between two samples of the baseline, and each such
// triple gives one ratio, the speed-up of that moment:
//
//	B C1 B C2 B C3 B ...   ratio_i = mean(B before C_i, B after C_i) / C_i
//
// A change of machine speed slower than one triple (two or three samples,
// about 10 ms at the default sample length) cancels in the ratio, and a
// linear drift within the triple cancels too because the codec's sample is
// bracketed. The speed-up is the median of the ratios and its 95% interval
// the distribution-free interval of that median (golang.org/x/perf/benchmath,
// as for ns/op). This is the sequential form of duet benchmarking: Bulej et
// al., "Duet Benchmarking: Improving Measurement Accuracy in the Cloud"
// (ICPE 2020), and of randomized multiple interleaved trials (Abedi and
// Brecht, ICPE 2017). On a machine whose two vCPUs share a core, the two
// sides must not run at the same time, so they alternate.
//
// The baseline's samples taken between codec samples are its own samples
// too: its ns/op is the median of all of them.

// pairing links each timed cell to the baseline cell it is sampled
// between: the timed cell of the baseline codec on the same scenario and
// op. Cells of the baseline itself, and cells whose scenario and op the
// baseline does not time (convert, compression ops, a parse-only codec),
// are not paired.
func pairing(timed []*cell, baseline string) {
	type key struct{ scenario, op string }
	base := map[key]*cell{}
	for _, c := range timed {
		if c.Codec == baseline && c.fn != nil {
			base[key{c.Scenario, c.Op}] = c
		}
	}
	for _, c := range timed {
		if b := base[key{c.Scenario, c.Op}]; b != nil && b != c {
			c.base = b
		}
	}
}

// sampleCells takes one sample of each of cells, in order; a cell with a
// baseline (cell.base) is sampled between two samples of it, one baseline
// sample shared between neighbours that have the same baseline. ok is
// called before every sample (baseline samples included) and stops the
// pass when it returns false; step is called after each. A paired sample
// whose closing baseline sample is cut off by ok pairs with the opening one
// alone.
func sampleCells(cells []*cell, ok func() bool, step func()) {
	var open *cell   // the baseline whose latest sample opens the next pair
	var last float64 // that sample's ns/op
	// take samples c once; stop is true when ok said no, failed when the
	// cell's operation failed (and the cell stopped).
	take := func(c *cell) (v float64, failed, stop bool) {
		if !ok() {
			return 0, false, true
		}
		n := len(c.ns)
		c.sample()
		step()
		if len(c.ns) == n {
			return 0, true, false
		}
		return c.ns[n], false, false
	}
	for _, c := range cells {
		b := c.base
		if b == nil || b.fn == nil {
			// Any cell's sample can open the pairs of the cells it is the
			// baseline of: the baseline's own turn comes just before them.
			v, failed, stop := take(c)
			if stop {
				return
			}
			open, last = c, v
			if failed {
				open = nil
			}
			continue
		}
		if open != b {
			v, failed, stop := take(b)
			if stop {
				return
			}
			if failed {
				open = nil
				continue
			}
			open, last = b, v
		}
		x, failed, stop := take(c)
		if stop {
			return
		}
		if failed {
			continue
		}
		before := last
		after, failed, stop := take(b)
		if stop || failed {
			open = nil
			c.addPair(before, x)
			if stop {
				return
			}
			continue
		}
		last = after
		c.addPair((before+after)/2, x)
	}
}

// addPair records one per-pair speed-up: the baseline's ns/op next to the
// sample over the sample's.
func (c *cell) addPair(base, x float64) {
	if x > 0 && base > 0 && !math.IsInf(base, 0) {
		c.pairs = append(c.pairs, base/x)
	}
}

// pairedSamples is the number of samples sampleCells takes for cells when
// nothing stops it: each cell's own, and one baseline sample per run of
// neighbours with the same baseline plus one per paired cell.
func pairedSamples(cells []*cell) int {
	n := 0
	var open *cell
	for _, c := range cells {
		n++
		if c.base == nil || c.base.fn == nil {
			open = c
			continue
		}
		if open != c.base {
			n++
			open = c.base
		}
		n++
	}
	return n
}

// groupByBase orders cells so that those sharing a baseline cell are
// neighbours (and share baseline samples), right after the baseline cell
// itself when it is among cells, keeping the order in which each group
// first appears and the order of cells within it.
func groupByBase(cells []*cell) []*cell {
	out := make([]*cell, 0, len(cells))
	done := map[*cell]bool{} // baselines whose group is out
	group := func(b *cell, from int) {
		if done[b] {
			return
		}
		done[b] = true
		for _, d := range cells[from:] {
			if d.base == b {
				out = append(out, d)
			}
		}
	}
	for i, c := range cells {
		if c.base == nil {
			out = append(out, c)
			group(c, i)
			continue
		}
		group(c.base, i)
	}
	return out
}
