package main

import (
	"strings"
	"testing"
	"time"
)

// TestProgressLine checks the plain progress line: the time left from the
// pace so far, the budget when there is one, and no line printed twice.
func TestProgressLine(t *testing.T) {
	var sb strings.Builder
	start := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC)
	p := newProgress(&sb, start, "benchmark runs")
	p.budget = 2 * time.Minute
	// The first count came 10 s in (after the builds): the pace is from
	// there, 9 runs in 10 s.
	p.first, p.firstDone = start.Add(10*time.Second), 1
	p.done, p.total = 10, 40
	p.printLine(start.Add(20 * time.Second))
	p.printLine(start.Add(25 * time.Second)) // the same counts: not again
	p.done = 40
	p.printLine(start.Add(80 * time.Second))
	want := "serbench: 10/40 benchmark runs (25%), 20s elapsed, 10s of the budget 2m0s used, about 33s left\n" +
		"serbench: 40/40 benchmark runs (100%), 1m20s elapsed, 1m10s of the budget 2m0s used\n"
	if sb.String() != want {
		t.Errorf("lines:\n%s\nwant:\n%s", sb.String(), want)
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
