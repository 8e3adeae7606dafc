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

// TestUTestPInRange runs the U-test over every interleaving of n samples
// a side for n up to 6: benchmath's sum rounds the p-value of some of them
// (6 of the 20 at n=3, 40 of the 252 at n=5) just past 1, which UTest
// must clamp.
func TestUTestPInRange(t *testing.T) {
	for n := 1; n <= 6; n++ {
		var walk func(old, new []float64, next float64)
		walk = func(old, new []float64, next float64) {
			if len(old) == n && len(new) == n {
				if p := stats.UTest(old, new, 0.05).P; p < 0 || p > 1 {
					t.Errorf("old %v new %v: p %v, want it in [0, 1]", old, new, p)
				}
				return
			}
			if len(old) < n {
				walk(append(slices.Clone(old), next), new, next+1)
			}
			if len(new) < n {
				walk(old, append(slices.Clone(new), next), next+1)
			}
		}
		walk(nil, nil, 1)
	}
}

func TestClampP(t *testing.T) {
	for _, tc := range []struct{ p, want float64 }{
		{0.5, 0.5}, {1, 1}, {0, 0}, {1.0000000000000002, 1}, {-1e-17, 0},
	} {
		if got := stats.ClampP(tc.p); got != tc.want {
			t.Errorf("ClampP(%v) = %v, want %v", tc.p, got, tc.want)
		}
	}
	if got := stats.ClampP(math.NaN()); !math.IsNaN(got) {
		t.Errorf("ClampP(NaN) = %v, want NaN", got)
	}
}
