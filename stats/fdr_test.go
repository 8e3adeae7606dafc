package stats_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/serbench/serbench/stats"
)

func TestAdjustBH(t *testing.T) {
	for _, tc := range []struct{ ps, want []float64 }{
		{nil, []float64{}},
		{[]float64{0.01, 0.04, 0.03, 0.005}, []float64{0.02, 0.04, 0.04, 0.02}},
		{[]float64{0.5, 0.9}, []float64{0.9, 0.9}},
		{[]float64{0.002, 0.002, 0.002}, []float64{0.002, 0.002, 0.002}},
		{[]float64{0.8, 0.01}, []float64{0.8, 0.02}},
	} {
		got := stats.AdjustBH(tc.ps)
		if len(got) != len(tc.want) {
			t.Fatalf("AdjustBH(%v) = %v, want %v", tc.ps, got, tc.want)
		}
		for i := range got {
			if math.Abs(got[i]-tc.want[i]) > 1e-12 {
				t.Errorf("AdjustBH(%v) = %v, want %v", tc.ps, got, tc.want)
				break
			}
		}
	}
}

func ExampleAdjustBH() {
	// Four U-tests each: every q is at least its p, and small p-values are
	// raised less when other tests are small too.
	fmt.Println(stats.AdjustBH([]float64{0.01, 0.04, 0.03, 0.005}))
	fmt.Println(stats.AdjustBH([]float64{0.01, 0.06, 0.03, 0.005}))
	// Output:
	// [0.02 0.04 0.04 0.02]
	// [0.02 0.06 0.04 0.02]
}
