package stats_test

import (
	"math"
	"slices"
	"testing"

	"github.com/serbench/serbench/stats"
)

func TestUTest(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new []float64
		p        float64 // want, within 1e-9
		warnings bool
	}{
		// Six against six, all new values larger: the smallest p the
		// exact test has at n=6+6, 2/C(12,6) = 2/924.
		{"separate", []float64{6, 1, 3, 2, 5, 4}, []float64{16, 11, 13, 12, 15, 14}, 2.0 / 924, false},
		{"the same samples", []float64{1, 2, 3, 4, 5, 6}, []float64{1, 2, 3, 4, 5, 6}, 1, false},
		// Two against two cannot reach 0.05: benchmath warns.
		{"too few", []float64{1, 2}, []float64{3, 4}, 1.0 / 3, true},
	} {
		oldKeep, newKeep := slices.Clone(tc.old), slices.Clone(tc.new)
		cmp := stats.UTest(tc.old, tc.new, 0.05)
		if math.Abs(cmp.P-tc.p) > 1e-9 {
			t.Errorf("%s: p %v, want %v", tc.name, cmp.P, tc.p)
		}
		if (len(cmp.Warnings) > 0) != tc.warnings {
			t.Errorf("%s: warnings %v, want some: %v", tc.name, cmp.Warnings, tc.warnings)
		}
		if !slices.Equal(tc.old, oldKeep) || !slices.Equal(tc.new, newKeep) {
			t.Errorf("%s: UTest reordered its arguments: %v %v", tc.name, tc.old, tc.new)
		}
	}
}
