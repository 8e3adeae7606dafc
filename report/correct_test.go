package report_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/serbench/serbench/report"
)

func TestAdjustBH(t *testing.T) {
	for _, tc := range []struct{ ps, want []float64 }{
		{nil, []float64{}},
		{[]float64{0.01, 0.04, 0.03, 0.005}, []float64{0.02, 0.04, 0.04, 0.02}},
		{[]float64{0.5, 0.9}, []float64{0.9, 0.9}},
		{[]float64{0.002, 0.002, 0.002}, []float64{0.002, 0.002, 0.002}},
		{[]float64{0.8, 0.01}, []float64{0.8, 0.02}},
	} {
		got := report.AdjustBH(tc.ps)
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
	fmt.Println(report.AdjustBH([]float64{0.01, 0.04, 0.03, 0.005}))
	fmt.Println(report.AdjustBH([]float64{0.01, 0.06, 0.03, 0.005}))
	// Output:
	// [0.02 0.04 0.04 0.02]
	// [0.02 0.06 0.04 0.02]
}

func TestParseThreshold(t *testing.T) {
	for in, want := range map[string]float64{"5%": 0.05, "0.05": 0.05, " 12.5% ": 0.125, "0": 0} {
		if got, err := report.ParseThreshold(in); err != nil || math.Abs(got-want) > 1e-12 {
			t.Errorf("ParseThreshold(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "%", "five", "-1%", "NaN"} {
		if _, err := report.ParseThreshold(in); err == nil {
			t.Errorf("ParseThreshold(%q): no error", in)
		}
	}
}
