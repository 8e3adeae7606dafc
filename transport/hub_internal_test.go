package transport

import (
	"fmt"
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

// One client naming many run= evicts its own oldest stats entries, never
// another client's (issue 44: 1,100 HEADs with distinct run= evicted
// another client's /stats?run= entry), and the table stays bounded.
func TestStatsEviction(t *testing.T) {
	var tab statsTable
	victim := tab.get("victim", "cbor", "10.0.0.1")
	for c := range 5 {
		for i := range 1100 {
			tab.get(fmt.Sprintf("c%d-r%d", c, i), "cbor", fmt.Sprintf("10.0.1.%d", c))
		}
	}
	if tab.m[[2]string{"victim", "cbor"}] != victim {
		t.Error("the victim client's entry was evicted")
	}
	if len(tab.m) > maxRuns || len(tab.order) != len(tab.m) {
		t.Errorf("%d entries (%d in order), want at most %d", len(tab.m), len(tab.order), maxRuns)
	}
	for c, n := range tab.clients {
		if n > maxClientRuns {
			t.Errorf("client %s holds %d entries, want at most %d", c, n, maxClientRuns)
		}
	}
}
