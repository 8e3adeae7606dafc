package stats_test

import (
	"testing"

	"github.com/serbench/serbench/stats"
)

func TestRatioInterval(t *testing.T) {
	flat := func(v float64, n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = v
		}
		return xs
	}
	if lo, hi := stats.RatioInterval(flat(200, 8), flat(100, 8)); lo != 2 || hi != 2 {
		t.Errorf("constant samples: interval [%v, %v], want [2, 2]", lo, hi)
	}
	base := []float64{190, 195, 198, 200, 200, 202, 205, 210, 215, 230}
	xs := []float64{90, 95, 98, 100, 100, 101, 103, 105, 120}
	lo, hi := stats.RatioInterval(base, xs)
	if !(lo < 2 && 2 < hi) || lo < 1.7 || hi > 2.3 {
		t.Errorf("interval [%v, %v] should hold 2 and stay within [1.7, 2.3]", lo, hi)
	}
	if lo2, hi2 := stats.RatioInterval(base, xs); lo2 != lo || hi2 != hi {
		t.Errorf("not reproducible: [%v, %v] then [%v, %v]", lo, hi, lo2, hi2)
	}
	if lo, hi := stats.RatioInterval(base, xs[:1]); lo != 0 || hi != 0 {
		t.Errorf("one sample: [%v, %v], want [0, 0]", lo, hi)
	}
}
