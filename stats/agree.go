package stats

import (
	"math"
	"sort"
)

// AgreementSummary is how closely two measurements of the same cells
// agree (Agreement).
type AgreementSummary struct {
	// Cells is the number of differences; Within how many of them are at
	// most the tolerance in absolute value.
	Cells, Within int
	// MedianAbs is the median absolute difference (a fraction, as the
	// differences are); 0 for no cells.
	MedianAbs float64
	// Worst is the index of the difference largest in absolute value (the
	// first of equals); 0 for no cells.
	Worst int
}

// Agreement summarises the differences between two measurements of the
// same cells, each one measurement over the other minus 1 (serbench's
// speed-up over the plain loop's: +0.53 when 53% higher), against
// tolerance (a fraction: 0.15 for 15%). It is the agreement figure of
// docs/agreement.md: the share within the tolerance, the median absolute
// difference and the worst cell. diffs is not modified.
func Agreement(diffs []float64, tolerance float64) AgreementSummary {
	s := AgreementSummary{Cells: len(diffs)}
	abs := make([]float64, len(diffs))
	for i, d := range diffs {
		abs[i] = math.Abs(d)
		if abs[i] <= tolerance {
			s.Within++
		}
		if abs[i] > abs[s.Worst] {
			s.Worst = i
		}
	}
	sort.Float64s(abs)
	if n := len(abs); n > 0 {
		s.MedianAbs = (abs[(n-1)/2] + abs[n/2]) / 2
	}
	return s
}
