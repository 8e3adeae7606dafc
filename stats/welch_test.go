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

// TestWelchLogsInterval checks the interval against a hand computation:
// logs of old {1, e^0.2} and new {e^0.1, e^0.3}: d = 0.1, each variance
// 0.02, se² = 0.02, df = 2, t(0.975, 2) = 4.302653.
func TestWelchLogsInterval(t *testing.T) {
	old := []float64{1, math.Exp(0.2)}
	new := []float64{math.Exp(0.1), math.Exp(0.3)}
	lo, hi, ok := stats.WelchLogsInterval(old, new, false, 0.95)
	se := math.Sqrt(0.02)
	wantLo, wantHi := math.Expm1(0.1-4.302653*se), math.Expm1(0.1+4.302653*se)
	if !ok || math.Abs(lo-wantLo) > 1e-4 || math.Abs(hi-wantHi) > 1e-4 {
		t.Errorf("interval [%v, %v] (ok %v), want [%v, %v]", lo, hi, ok, wantLo, wantHi)
	}
	// Higher is better: the change is the old over the new, mirrored.
	lo2, hi2, _ := stats.WelchLogsInterval(old, new, true, 0.95)
	if math.Abs(lo2-math.Expm1(-0.1-4.302653*se)) > 1e-4 || math.Abs(hi2-math.Expm1(-0.1+4.302653*se)) > 1e-4 {
		t.Errorf("higher is better: [%v, %v]", lo2, hi2)
	}
	if _, _, ok := stats.WelchLogsInterval([]float64{1}, new, false, 0.95); ok {
		t.Error("one old value: ok")
	}
	if lo, hi, ok := stats.WelchLogsInterval([]float64{2, 2}, []float64{3, 3}, false, 0.95); !ok || math.Abs(lo-0.5) > 1e-12 || math.Abs(hi-0.5) > 1e-12 {
		t.Errorf("no spread: [%v, %v] (ok %v), want the change 0.5 itself", lo, hi, ok)
	}
}
