package stats_test

import (
	"slices"
	"testing"

	"github.com/serbench/serbench/stats"
)

func TestSummarizeKeepsOrder(t *testing.T) {
	xs := []float64{3, 1, 2, 5, 4, 6}
	stats.Summarize(xs)
	if !slices.Equal(xs, []float64{3, 1, 2, 5, 4, 6}) {
		t.Errorf("Summarize sorted its argument: %v", xs)
	}
}

func TestCompareSamples(t *testing.T) {
	den := []float64{100, 101, 99, 102, 98, 100}
	num := []float64{200, 202, 198, 204, 196, 200}
	r := stats.CompareSamples(num, den)
	if r.Value != 2 || !(r.Lo > 1.9 && r.Lo <= 2 && r.Hi >= 2 && r.Hi < 2.1) || r.P > 0.01 {
		t.Errorf("CompareSamples(2x) = %+v", r)
	}
	if num[0] != 200 || den[0] != 100 {
		t.Errorf("CompareSamples reordered its input: %v %v", num, den)
	}
	if r := stats.CompareSamples(den, den); r.Value != 1 || r.P < 0.5 {
		t.Errorf("CompareSamples(same) = %+v", r)
	}
	if r := stats.CompareSamples(nil, den); r.Value != 0 || r.P != 1 || r.Lo != 0 {
		t.Errorf("CompareSamples(nil) = %+v", r)
	}
}
