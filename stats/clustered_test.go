package stats_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/serbench/serbench/stats"
)

func TestClusteredChangeAt(t *testing.T) {
	// Three groups whose medians are e^-0.01, 1 and e^0.01: the mean log is
	// 0, the standard error 0.01/√3, and t at 97.5% with 2 degrees of
	// freedom 4.302653, so the bounds are exp(∓0.0248414).
	d := 0.01
	groups := [][]float64{{math.Exp(-d), math.Exp(-d) * 0.9, math.Exp(-d) * 1.1}, {1}, {math.Exp(d), math.Exp(d)}}
	c, lo, hi, ok := stats.ClusteredChangeAt(groups, 0.95)
	if !ok || math.Abs(c-1) > 1e-12 || math.Abs(hi-math.Exp(0.0248414)) > 1e-6 || math.Abs(lo-math.Exp(-0.0248414)) > 1e-6 {
		t.Errorf("ClusteredChangeAt = %v [%v, %v] %v, want 1 [%v, %v] true", c, lo, hi, ok, math.Exp(-0.0248414), math.Exp(0.0248414))
	}
	if groups[0][1] != math.Exp(-d)*0.9 {
		t.Error("ClusteredChangeAt modified its argument")
	}
	// Equal medians: the interval is the point.
	if c, lo, hi, ok := stats.ClusteredChangeAt([][]float64{{1.05, 1.04, 1.06}, {1.05}}, 0.95); !ok || math.Abs(c-1.05) > 1e-12 || lo != c || hi != c {
		t.Errorf("equal medians: %v [%v, %v] %v, want 1.05 [1.05, 1.05] true", c, lo, hi, ok)
	}
	for _, tc := range []struct {
		name   string
		groups [][]float64
		conf   float64
	}{
		{"one group", [][]float64{{1.1, 1.2}}, 0.95},
		{"one non-empty group", [][]float64{{1.1, 1.2}, nil}, 0.95},
		{"a ratio of 0", [][]float64{{1.1}, {0}}, 0.95},
		{"a NaN ratio", [][]float64{{1.1}, {math.NaN()}}, 0.95},
		{"confidence 1", [][]float64{{1.1}, {1.2}}, 1},
	} {
		if _, _, _, ok := stats.ClusteredChangeAt(tc.groups, tc.conf); ok {
			t.Errorf("%s: ok, want not", tc.name)
		}
	}
}

// TestClusteredCoverage simulates serbench ab over code layouts: four
// layouts, each with its own fixed effect on the ratio (a normal draw of
// 3% in the logarithm) and five rounds each of 1% noise, the true change
// 0. Over 2,000 seeded trials, the interval over all twenty ratios
// (PairedChangeAt) misses the true ratio far more often than 5%, while the
// interval between the layouts (ClusteredChangeAt) misses it at most 5%,
// within three binomial standard errors.
func TestClusteredCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	const trials = 2000
	pooledMiss, clusteredMiss := 0, 0
	for range trials {
		var all []float64
		groups := make([][]float64, 4)
		for k := range groups {
			effect := 0.03 * rng.NormFloat64()
			for range 5 {
				r := math.Exp(effect + 0.01*rng.NormFloat64())
				groups[k] = append(groups[k], r)
				all = append(all, r)
			}
		}
		if _, lo, hi := stats.PairedChangeAt(all, 0.95); !(lo <= 1 && 1 <= hi) {
			pooledMiss++
		}
		_, lo, hi, ok := stats.ClusteredChangeAt(groups, 0.95)
		if !ok {
			t.Fatal("ClusteredChangeAt: not ok")
		}
		if !(lo <= 1 && 1 <= hi) {
			clusteredMiss++
		}
	}
	limit := 0.05 + 3*math.Sqrt(0.05*0.95/trials)
	if r := float64(clusteredMiss) / trials; r > limit {
		t.Errorf("the interval between layouts missed the true ratio in %.1f%% of trials, want at most %.1f%%", 100*r, 100*limit)
	}
	if r := float64(pooledMiss) / trials; r < 0.25 {
		t.Errorf("the pooled interval missed the true ratio in only %.1f%% of trials: the simulation does not show what layouts do", 100*r)
	}
	t.Logf("misses of 2,000: pooled %d, between layouts %d", pooledMiss, clusteredMiss)
}
