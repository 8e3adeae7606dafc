package stats_test

import (
	"testing"

	"github.com/serbench/serbench/stats"
)

func TestPlateauStartIntervals(t *testing.T) {
	// 449 is more than 10% below 500, but its interval reaches 460: noise
	// alone does not end the plateau.
	mbps := []float64{100, 470, 500, 449}
	if from, _ := stats.PlateauStart(mbps, []float64{110, 480, 520, 460}, 0.10); from != 1 {
		t.Errorf("with intervals: from %d, want 1", from)
	}
	if from, _ := stats.PlateauStart(mbps, []float64{110, 480, 520, 449.5}, 0.10); from != 4 {
		t.Errorf("interval below the tolerance: from %d, want 4", from)
	}
}

func TestPlateauStart(t *testing.T) {
	for _, tc := range []struct {
		mbps       []float64
		from, best int
	}{
		{[]float64{100, 300, 500, 520, 510, 515}, 2, 3}, // 500 ≥ 0.9×520
		{[]float64{100, 200, 400, 800}, 3, 3},           // still rising
		{[]float64{500, 480, 470, 460}, 0, 0},           // flat from the start
		{[]float64{100, 600, 300, 590, 600}, 3, 1},      // a dip after the best restarts it
		{[]float64{100, 470, 500, 449}, 4, 2},           // the last falls out: no plateau
		{[]float64{42}, 0, 0},
	} {
		from, best := stats.PlateauStart(tc.mbps, tc.mbps, 0.10)
		if from != tc.from || best != tc.best {
			t.Errorf("PlateauStart(%v) = %d, %d; want %d, %d", tc.mbps, from, best, tc.from, tc.best)
		}
	}
}
