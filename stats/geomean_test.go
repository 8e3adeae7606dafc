package stats_test

import (
	"math"
	"testing"

	"github.com/serbench/serbench/stats"
)

func TestGeoMean(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{5}, 5},
		{[]float64{2, 8}, 4},
		{[]float64{1, 10, 100}, 10},
		{[]float64{0.5, 2}, 1},
	} {
		if got := stats.GeoMean(tc.xs); math.Abs(got-tc.want) > 1e-12*tc.want {
			t.Errorf("GeoMean(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
}

func TestGeoMeanInterval(t *testing.T) {
	for _, tc := range []struct {
		name              string
		xs, lo, hi        []float64
		g, wantLo, wantHi float64
	}{
		// One cell: its own interval back.
		{"one cell", []float64{2}, []float64{1}, []float64{4}, 2, 1, 4},
		// Two cells with the same interval: the standard error shrinks by
		// sqrt(2) (sqrt(2·se²)/2).
		{"two equal cells", []float64{2, 2}, []float64{1, 1}, []float64{4, 4}, 2,
			2 / math.Pow(2, 1/math.Sqrt2), 2 * math.Pow(2, 1/math.Sqrt2)},
		// A cell without an interval leaves the mean without one.
		{"a cell lacks an interval", []float64{2, 8}, []float64{1, 0}, []float64{4, 0}, 4, 0, 0},
	} {
		g, lo, hi := stats.GeoMeanInterval(tc.xs, tc.lo, tc.hi)
		if math.Abs(g-tc.g) > 1e-12 || math.Abs(lo-tc.wantLo) > 1e-12 || math.Abs(hi-tc.wantHi) > 1e-12 {
			t.Errorf("%s: GeoMeanInterval = %v [%v, %v], want %v [%v, %v]", tc.name, g, lo, hi, tc.g, tc.wantLo, tc.wantHi)
		}
	}
}

func TestGeoMeanChange(t *testing.T) {
	for _, tc := range []struct {
		changes []float64
		want    float64
	}{
		{nil, 0},
		{[]float64{0.1}, 0.1},
		{[]float64{0.21, -0.19}, -0.01}, // sqrt(1.21 × 0.81) = 0.99
		{[]float64{1, -0.5}, 0},         // twice as slow, then twice as fast
		{[]float64{1e-12, 1e-12}, 1e-12},
	} {
		if got := stats.GeoMeanChange(tc.changes); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("GeoMeanChange(%v) = %v, want %v", tc.changes, got, tc.want)
		}
	}
}
