package stats_test

import (
	"slices"
	"testing"

	"github.com/serbench/serbench/stats"
)

func TestParetoFront(t *testing.T) {
	for _, tc := range []struct {
		name       string
		cost, size []float64
		want       []int
	}{
		{"none", nil, nil, nil},
		{"one", []float64{5}, []float64{5}, []int{0}},
		// (3, 35) is both slower and larger than (2, 30).
		{"one dominated", []float64{1, 2, 3, 4}, []float64{40, 30, 35, 10}, []int{0, 1, 3}},
		{"equal points both stay", []float64{1, 1}, []float64{5, 5}, []int{0, 1}},
		// As fast and larger: dominated by the one better in size alone.
		{"tie in one, worse in the other", []float64{1, 1}, []float64{5, 6}, []int{0}},
		{"one beats all", []float64{3, 1, 2}, []float64{3, 1, 2}, []int{1}},
		{"order of the input kept", []float64{4, 1}, []float64{1, 4}, []int{0, 1}},
	} {
		if got := stats.ParetoFront(tc.cost, tc.size); !slices.Equal(got, tc.want) {
			t.Errorf("%s: ParetoFront(%v, %v) = %v, want %v", tc.name, tc.cost, tc.size, got, tc.want)
		}
	}
}
