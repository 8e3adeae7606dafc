package main

import (
	"strings"
	"testing"
	"time"
)

// TestProgressLine checks the plain progress line: the time left from the
// pace so far, the budget when there is one, and no line printed twice;
// with adaptive sampling (growing), whose total grows, the budget's
// remainder instead of a percentage of a moving total.
func TestProgressLine(t *testing.T) {
	start := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		unit    string
		budget  time.Duration
		growing bool
		// counts are done/total at each line's time, in seconds after start.
		counts [][3]int
		want   string
	}{
		{"ab", "benchmark runs", 2 * time.Minute, false, [][3]int{{10, 40, 20}, {10, 40, 25}, {40, 40, 80}},
			"serbench: 10/40 benchmark runs (25%), 20s elapsed, 10s of the budget 2m0s used, about 33s left\n" +
				"serbench: 40/40 benchmark runs (100%), 1m20s elapsed, 1m10s of the budget 2m0s used\n"},
		{"run", "measurements", 150 * time.Second, true, [][3]int{{27835, 27841, 30}, {27841, 27841, 140}},
			"serbench: 27835 of 27841 measurements planned so far (adaptive sampling adds more), 30s elapsed of the -max-time budget 2m30s, at most 2m0s left\n" +
				"serbench: 27841 of 27841 measurements planned so far (adaptive sampling adds more), 2m20s elapsed of the -max-time budget 2m30s\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sb strings.Builder
			p := newProgress(&sb, start, tc.unit)
			p.budget, p.growing = tc.budget, tc.growing
			// The first count came 10 s in (after the builds): the pace is
			// from there.
			p.first, p.firstDone = start.Add(10*time.Second), 1
			for _, c := range tc.counts {
				p.done, p.total = c[0], c[1]
				p.printLine(start.Add(time.Duration(c[2]) * time.Second))
			}
			if sb.String() != tc.want {
				t.Errorf("lines:\n%s\nwant:\n%s", sb.String(), tc.want)
			}
		})
	}
}

// TestMinUTestSamples: 3 samples a side can never reach 0.05 (p ≥ 0.1),
// 4 can (0.029).
func TestMinUTestSamples(t *testing.T) {
	if got := minUTestSamples(0.05); got != 4 {
		t.Errorf("minUTestSamples(0.05) = %d, want 4", got)
	}
	if got := minUTestSamples(0.1); got != 3 {
		t.Errorf("minUTestSamples(0.1) = %d, want 3", got)
	}
}
