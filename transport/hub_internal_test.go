package transport

import (
	"math"
	"testing"
	"time"
)

// intended never overflows: any k and period give a time after the
// stream's start, no more than maxOffset later, growing with k (issue 33:
// a period of 1e19 ns wrapped to 292 years in the past, so every message
// was due and the scheduler loop never returned).
func TestIntendedSaturates(t *testing.T) {
	start := time.Now()
	for _, period := range []float64{1e5, 1e12, 1e19, math.MaxFloat64, math.Inf(1)} {
		s := &stream{start: start, period: period}
		prev := start
		for _, k := range []uint64{1, 2, 1 << 20, 1 << 40, 1 << 53, math.MaxUint64} {
			at := s.intended(k)
			if at.Before(prev) || at.Sub(start) > time.Duration(maxOffset) {
				t.Fatalf("period %g, k %d: intended %v after start, want within (0, %v] and not before k-1's", period, k, at.Sub(start), time.Duration(maxOffset))
			}
			prev = at
		}
	}
}
