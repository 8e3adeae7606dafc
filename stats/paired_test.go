package stats_test

import (
	"math"
	"slices"
	"testing"

	"github.com/serbench/serbench/stats"
)

func TestSignTest(t *testing.T) {
	for _, tc := range []struct {
		ratios []float64
		want   float64
	}{
		{nil, 1},
		{[]float64{1, 1}, 1},
		{[]float64{2}, 1},                       // 2 * 0.5
		{[]float64{2, 2, 2, 2, 2, 2}, 2.0 / 64}, // 2 * 0.5^6
		{[]float64{2, 0.5, 2, 0.5}, 1},
		{[]float64{2, 2, 2, 0.5}, 2 * 5.0 / 16}, // 2 * P(X <= 1), n = 4
	} {
		if got := stats.SignTest(tc.ratios); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("stats.SignTest(%v) = %v, want %v", tc.ratios, got, tc.want)
		}
	}
	many := make([]float64, 2000)
	for i := range many {
		many[i] = 1.1
	}
	if p := stats.SignTest(many); p > 1e-100 || math.IsNaN(p) {
		t.Errorf("2000 pairs above 1: p %v", p)
	}
}

func TestPairedChange(t *testing.T) {
	ratios := []float64{1.3, 1.1, 1.2, 1.0, 1.25, 1.15, 1.05, 1.22, 1.18, 1.12}
	keep := slices.Clone(ratios)
	m, lo, hi, p := stats.PairedChange(ratios)
	if !slices.Equal(ratios, keep) {
		t.Errorf("PairedChange reordered its argument: %v", ratios)
	}
	wm, wlo, whi := stats.Summarize(ratios)
	if m != wm || lo != wlo || hi != whi {
		t.Errorf("PairedChange median %v [%v, %v], want Summarize's %v [%v, %v]", m, lo, hi, wm, wlo, whi)
	}
	// Nine ratios above 1, one tie left out: 2 * 0.5^9.
	if want := 2.0 / 512; math.Abs(p-want) > 1e-12 {
		t.Errorf("p %v, want %v", p, want)
	}
	if !(lo <= m && m <= hi) {
		t.Errorf("interval [%v, %v] does not hold the median %v", lo, hi, m)
	}
}
