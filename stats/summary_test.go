package stats_test

import (
	"math"
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

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{5}, 5},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		keep := slices.Clone(tc.xs)
		if got := stats.Median(tc.xs); got != tc.want {
			t.Errorf("Median(%v) = %v, want %v", tc.xs, got, tc.want)
		}
		if !slices.Equal(tc.xs, keep) {
			t.Errorf("Median reordered its argument: %v", tc.xs)
		}
	}
}

func TestHalfWidth(t *testing.T) {
	for _, tc := range []struct {
		name    string
		samples []float64
		hw      float64
		ok      bool
	}{
		{"no spread", slices.Repeat([]float64{100}, 8), 0, true},
		{"too few for an interval", []float64{1, 2, 3, 4, 5}, 0, false},
		{"median not positive", slices.Repeat([]float64{-1}, 8), 0, false},
	} {
		if hw, ok := stats.HalfWidth(tc.samples); hw != tc.hw || ok != tc.ok {
			t.Errorf("%s: HalfWidth = %v, %v; want %v, %v", tc.name, hw, ok, tc.hw, tc.ok)
		}
	}
	// With an interval: its larger side over the median, as Summarize
	// gives them.
	xs := []float64{100, 104, 98, 101, 99, 120, 102, 97, 103, 100}
	m, lo, hi := stats.Summarize(xs)
	hw, ok := stats.HalfWidth(xs)
	if want := max(hi/m-1, 1-lo/m); !ok || hw != want || !(hw > 0) {
		t.Errorf("HalfWidth = %v, %v; want %v from Summarize's %v [%v, %v]", hw, ok, want, m, lo, hi)
	}
}

func TestRatioHalfWidth(t *testing.T) {
	for _, tc := range []struct {
		m, lo, hi, hw float64
		ok            bool
	}{
		{2, 1.8, 2.1, 0.1, true}, // the lower side is the larger
		{2, 1.9, 2.4, 0.2, true}, // the upper side is
		{2, 0, 2.1, 0, false},    // no lower bound
		{0, 1.8, 2.1, 0, false},  // no ratio
		{2, 1.8, -1, 0, false},   // no upper bound
		{1, 1, 1, 0, true},       // a point interval
		{4, 3, 5, 0.25, true},    // symmetric
		{1, 0.5, 1.5, 0.5, true}, // wide
		{10, 9, 10.5, 0.1, true}, // skewed low
		{10, 9.5, 12, 0.2, true}, // skewed high
		{1e-9, 5e-10, 1e-9, 0.5, true},
	} {
		hw, ok := stats.RatioHalfWidth(tc.m, tc.lo, tc.hi)
		if ok != tc.ok || math.Abs(hw-tc.hw) > 1e-12 {
			t.Errorf("RatioHalfWidth(%v, %v, %v) = %v, %v; want %v, %v", tc.m, tc.lo, tc.hi, hw, ok, tc.hw, tc.ok)
		}
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{4, 1, 3, 2}
	for _, tc := range []struct{ q, want float64 }{
		{0, 1}, {1, 4}, {0.5, 2.5}, {0.25, 1.75}, {0.75, 3.25},
	} {
		if got := stats.Quantile(xs, tc.q); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Quantile(%v, %v) = %v, want %v", xs, tc.q, got, tc.want)
		}
	}
	if !slices.Equal(xs, []float64{4, 1, 3, 2}) {
		t.Errorf("Quantile reordered its argument: %v", xs)
	}
	if got := stats.Quantile([]float64{7}, 0.5); got != 7 {
		t.Errorf("Quantile of one value = %v, want 7", got)
	}
}

func TestNearestRank(t *testing.T) {
	sorted := []int{10, 20, 30, 40, 50}
	for _, tc := range []struct {
		q    float64
		want int
	}{
		{0.01, 10}, {0.2, 10}, {0.21, 20}, {0.5, 30}, {0.99, 50}, {1, 50},
	} {
		if got := stats.NearestRank(sorted, tc.q); got != tc.want {
			t.Errorf("NearestRank(%v, %v) = %v, want %v", sorted, tc.q, got, tc.want)
		}
	}
}

// TestMedianEvenAndEmpty: the median of an even count is the mean of the
// two middle values, of nothing 0, and the input is left as it was.
func TestMedianEvenAndEmpty(t *testing.T) {
	xs := []float64{3, 1, 2, 10}
	if m := stats.Median(xs); m != 2.5 {
		t.Errorf("Median(%v) = %g, want 2.5", xs, m)
	}
	if xs[0] != 3 || xs[3] != 10 {
		t.Errorf("Median changed its input: %v", xs)
	}
	if m := stats.Median(nil); m != 0 {
		t.Errorf("Median(nil) = %g, want 0", m)
	}
}
