package load

import "testing"

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		n    int
		w    []float64
		want []int
	}{
		{10, []float64{1}, []int{10}},
		{10, []float64{50, 50}, []int{5, 5}},
		{1000, []float64{34, 33, 33}, []int{340, 330, 330}},
		{7, []float64{1, 1, 1}, []int{3, 2, 2}},
	} {
		got := split(tc.n, tc.w)
		counts := make([]int, len(tc.w))
		for _, c := range got {
			counts[c]++
		}
		for i := range counts {
			if counts[i] != tc.want[i] {
				t.Errorf("split(%d, %v) counts %v, want %v", tc.n, tc.w, counts, tc.want)
				break
			}
		}
	}
	// Interleaved: the first connections are not all of one codec.
	if s := split(4, []float64{1, 1}); s[0] == s[1] {
		t.Errorf("split(4, [1 1]) = %v, want interleaved", s)
	}
}
