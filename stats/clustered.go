package stats

import (
	"math"

	moremath "github.com/aclements/go-moremath/stats"
)

// ClusteredChangeAt is the change of ratios measured in pairs when the
// pairs come in groups that each share one draw of a source of variation
// the pairing does not remove: serbench ab's code layouts, where every
// round of layout K runs the same two builds, so that where the linker put
// the code is one fixed effect for all of that layout's rounds. Within a
// group the ratios are not independent draws of the change, and an
// interval over all of them (PairedChangeAt) only covers the round-to-round
// noise; here each group is one observation, its median ratio, and the
// interval is Student's t interval, at confidence (in (0, 1)), of the mean
// of their logarithms, with one degree of freedom fewer than there are
// groups, mapped back as exp: the analysis of summary measures (J. N. S.
// Matthews, D. G. Altman, M. J. Campbell and P. Royston, "Analysis of
// serial measurements in medical research", BMJ 300, 1990, pp. 230-235),
// which is what Kalibera and Jones prescribe for benchmarks with random
// effects at several levels: repeat the highest level that varies and
// take the interval over its means (T. Kalibera and R. Jones, "Rigorous
// benchmarking in reasonable time", ISMM 2013).
//
// center is the geometric mean of the groups' medians; lo and hi the
// bounds (both center when the medians are all equal). ok is false with
// fewer than two non-empty groups, a ratio that is not positive or a
// confidence outside (0, 1); groups and their ratios are not modified.
func ClusteredChangeAt(groups [][]float64, confidence float64) (center, lo, hi float64, ok bool) {
	if !(confidence > 0 && confidence < 1) {
		return 0, 0, 0, false
	}
	var means []float64
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		for _, r := range g {
			if !(r > 0) || math.IsInf(r, 1) {
				return 0, 0, 0, false
			}
		}
		means = append(means, math.Log(Median(g)))
	}
	if len(means) < 2 {
		return 0, 0, 0, false
	}
	m := moremath.Mean(means)
	se := math.Sqrt(moremath.Variance(means) / float64(len(means)))
	t := moremath.InvCDF(moremath.TDist{V: float64(len(means) - 1)})(1 - (1-confidence)/2)
	return math.Exp(m), math.Exp(m - t*se), math.Exp(m + t*se), true
}
