package bench

import "testing"

// Nearest rank over sizes: p50 of 1..10 is the 5th value, p99 the 10th;
// of 200 values 1..200, p99 is the 198th (ceil(0.99·200) = 198).
func TestStreamSizes(t *testing.T) {
	ten := []int{7, 3, 10, 1, 5, 2, 9, 4, 8, 6}
	var twoHundred []int
	for i := 200; i >= 1; i-- {
		twoHundred = append(twoHundred, i)
	}
	for _, tc := range []struct {
		sizes               []int
		p50, p99, max, mean int
		total               int64
	}{
		{[]int{42}, 42, 42, 42, 42, 42},
		{ten, 5, 10, 10, 6, 55},
		{twoHundred, 100, 198, 200, 101, 20100},
	} {
		s := newStreamSizes(tc.sizes)
		if s.Messages != len(tc.sizes) || s.P50 != tc.p50 || s.P99 != tc.p99 || s.Max != tc.max || s.TotalBytes != tc.total || s.MeanSize() != tc.mean {
			t.Errorf("%v: %+v mean %d", tc.sizes[:min(len(tc.sizes), 10)], *s, s.MeanSize())
		}
	}
	if ten[0] != 7 {
		t.Error("newStreamSizes sorted its argument in place")
	}
}
