package report_test

import (
	"math"
	"testing"

	"github.com/serbench/serbench/compare"
)

func TestParseThreshold(t *testing.T) {
	for in, want := range map[string]float64{"5%": 0.05, "0.05": 0.05, " 12.5% ": 0.125, "0": 0} {
		if got, err := compare.ParseThreshold(in); err != nil || math.Abs(got-want) > 1e-12 {
			t.Errorf("ParseThreshold(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "%", "five", "-1%", "NaN"} {
		if _, err := compare.ParseThreshold(in); err == nil {
			t.Errorf("ParseThreshold(%q): no error", in)
		}
	}
}
