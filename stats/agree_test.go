package stats_test

import (
	"math"
	"slices"
	"testing"

	"github.com/serbench/serbench/stats"
)

func TestAgreement(t *testing.T) {
	for _, tc := range []struct {
		name      string
		diffs     []float64
		tolerance float64
		want      stats.AgreementSummary
	}{
		{"none", nil, 0.15, stats.AgreementSummary{}},
		{"four cells", []float64{0.1, -0.3, 0.05, 0.2}, 0.15, stats.AgreementSummary{Cells: 4, Within: 2, MedianAbs: 0.15, Worst: 1}},
		{"odd count", []float64{-0.02, 0.04, 0.5}, 0.15, stats.AgreementSummary{Cells: 3, Within: 2, MedianAbs: 0.04, Worst: 2}},
		{"the first of equals is the worst", []float64{0.2, -0.2}, 0.1, stats.AgreementSummary{Cells: 2, Within: 0, MedianAbs: 0.2, Worst: 0}},
		{"at the tolerance is within", []float64{0.15, -0.15}, 0.15, stats.AgreementSummary{Cells: 2, Within: 2, MedianAbs: 0.15, Worst: 0}},
	} {
		keep := slices.Clone(tc.diffs)
		got := stats.Agreement(tc.diffs, tc.tolerance)
		if got.Cells != tc.want.Cells || got.Within != tc.want.Within || got.Worst != tc.want.Worst || math.Abs(got.MedianAbs-tc.want.MedianAbs) > 1e-12 {
			t.Errorf("%s: Agreement(%v, %v) = %+v, want %+v", tc.name, tc.diffs, tc.tolerance, got, tc.want)
		}
		if !slices.Equal(tc.diffs, keep) {
			t.Errorf("%s: Agreement reordered its argument: %v", tc.name, tc.diffs)
		}
	}
}
