package stats_test

import (
	"math"
	"testing"

	"github.com/serbench/serbench/stats"
)

func TestWelchLogs(t *testing.T) {
	// Speed-ups: higher is better, so a fall is a positive change.
	p, ch := stats.WelchLogs([]float64{2, 2.02, 1.98}, []float64{1.8, 1.82, 1.78}, true)
	if p > 0.01 || math.Abs(ch-(2.0/1.8-1)) > 0.01 {
		t.Errorf("10%% fall: p %v, change %v", p, ch)
	}
	if p, _ := stats.WelchLogs([]float64{2, 2.4, 1.9}, []float64{2.3, 1.95, 2.2}, true); p < 0.2 {
		t.Errorf("spread between runs taken for a change: p %v", p)
	}
	// No spread at all: equal is no change, different is certain.
	if p, ch := stats.WelchLogs([]float64{3, 3}, []float64{3, 3}, false); p != 1 || ch != 0 {
		t.Errorf("equal constants: p %v, change %v", p, ch)
	}
	if p, ch := stats.WelchLogs([]float64{3, 3}, []float64{4, 4}, false); p != 0 || math.Abs(ch-1.0/3) > 1e-12 {
		t.Errorf("different constants: p %v, change %v", p, ch)
	}
}

func TestWelchCounts(t *testing.T) {
	if p, ch := stats.WelchCounts([]float64{0, 0, 0}, []float64{1, 1, 1}); p != 0 || ch != 0 {
		t.Errorf("0 → 1 allocs/op: p %v, change %v (no ratio from 0)", p, ch)
	}
	if p, ch := stats.WelchCounts([]float64{1, 1, 1}, []float64{2, 2, 2}); p != 0 || ch != 1 {
		t.Errorf("1 → 2 allocs/op: p %v, change %v", p, ch)
	}
}
