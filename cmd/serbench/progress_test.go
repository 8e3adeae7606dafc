package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/ab"
	"github.com/serbench/serbench/bench"
)

// fakeClock returns a progress clock that reads start plus *at seconds.
func fakeClock(start time.Time, at *int) func() time.Time {
	return func() time.Time { return start.Add(time.Duration(*at) * time.Second) }
}

// TestProgressLine checks the lines progress writes when stderr is not a
// terminal: run's cells done of a fixed number of cells, with the budget
// and the time left bounded by it (and the share shown of it when it
// ends the work); ab's builds, then its rounds with the
// benchmarks decided; a line only every tenth of the work or 30 s, or at
// a new phase, and never one line twice.
func TestProgressLine(t *testing.T) {
	start := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC)
	t.Run("run", func(t *testing.T) {
		var sb strings.Builder
		at := 0
		p := newProgress(&sb, start, "measurements")
		p.now = fakeClock(start, &at)
		p.budget, p.budgetStart = 150*time.Second, start
		for _, u := range []struct {
			at int
			b  bench.Progress
		}{
			{1, bench.Progress{Phase: bench.PhaseCalibrate, Cells: 400, Done: 1, Left: 5199}},
			{5, bench.Progress{Phase: bench.PhaseCalibrate, Cells: 400, Done: 400, Left: 4800}},
			{6, bench.Progress{Phase: bench.PhaseSample, Cells: 400, Done: 401, Left: 4799}},
			{7, bench.Progress{Phase: bench.PhaseSample, Cells: 400, Done: 402, Left: 4798}},  // not a tenth further
			{40, bench.Progress{Phase: bench.PhaseSample, Cells: 400, Done: 900, Left: 4300}}, // 30 s on
			// Adaptive sampling: the work's estimate shrinks as cells meet
			// the target; the cells stay 400.
			{60, bench.Progress{Phase: bench.PhaseSample, Cells: 400, CellsDone: 300, Done: 5000, Left: 1000}},
			{149, bench.Progress{Phase: bench.PhaseSample, Cells: 400, CellsDone: 390, Done: 5600, Left: 900}},
		} {
			at = u.at
			p.measuring(u.b)
		}
		// The end, a second later, with nothing new: no line only the
		// time differs in.
		at = 150
		p.finish()
		want := "serbench: calibrating: 0/400 cells done (0%), 1s of the budget 2m30s used\n" +
			"serbench: sampling: 0/400 cells done (8%), 6s of the budget 2m30s used\n" +
			"serbench: sampling: 0/400 cells done (27% of the budget), 40s of the budget 2m30s used, at most 1m50s left (the budget)\n" +
			"serbench: sampling: 300/400 cells done (83%), 1m0s of the budget 2m30s used, about 12s left\n" +
			"serbench: sampling: 390/400 cells done (99% of the budget), 2m29s of the budget 2m30s used, at most 1s left (the budget)\n"
		if sb.String() != want {
			t.Errorf("lines:\n%s\nwant:\n%s", sb.String(), want)
		}
	})
	t.Run("ab", func(t *testing.T) {
		var sb strings.Builder
		at := 0
		p := newProgress(&sb, start, "")
		p.now = fakeClock(start, &at)
		for i := range 2 {
			at = 8 * i
			p.report(stage{phase: "building", counts: fmt.Sprintf("base (build %d of 2)", i+1), done: i, left: 2 - i})
		}
		p.budget, p.budgetStart = 2*time.Minute, start.Add(16*time.Second)
		for r := 1; r <= 40; r++ {
			at = 16 + r
			p.report(abStage(ab.Progress{Runs: r, RunsLeft: 40 - r, Benchmarks: 6, Decided: r / 10}, true))
		}
		p.finish()
		want := "serbench: building: base (build 1 of 2) (0%), 0s elapsed\n" +
			"serbench: building: base (build 2 of 2) (50%), 8s elapsed, about 8s left\n" +
			"serbench: measuring: 0/6 benchmarks decided, 1/40 test binary runs (2%), 1s of the budget 2m0s used\n" +
			"serbench: measuring: 0/6 benchmarks decided, 5/40 test binary runs (12%), 5s of the budget 2m0s used, about 35s left\n" +
			"serbench: measuring: 0/6 benchmarks decided, 9/40 test binary runs (22%), 9s of the budget 2m0s used, about 31s left\n"
		if got := sb.String(); !strings.HasPrefix(got, want) {
			t.Errorf("lines:\n%s\nwant first:\n%s", got, want)
		}
		lines := strings.Split(strings.TrimSuffix(sb.String(), "\n"), "\n")
		if last := lines[len(lines)-1]; last != "serbench: measuring: 4/6 benchmarks decided, 40/40 test binary runs (100%), 40s of the budget 2m0s used" {
			t.Errorf("last line %q", last)
		}
		seen := map[string]bool{}
		for _, l := range lines {
			if seen[l] {
				t.Errorf("line written twice: %q", l)
			}
			seen[l] = true
		}
		if len(lines) > 14 {
			t.Errorf("%d lines for 2 builds and 40 runs over 40 s, want one a tenth:\n%s", len(lines), sb.String())
		}
	})
	t.Run("done past the budget", func(t *testing.T) {
		var sb strings.Builder
		at := 0
		p := newProgress(&sb, start, "")
		p.now = fakeClock(start, &at)
		p.budget, p.budgetStart = 10*time.Second, start
		p.report(stage{phase: "sampling", counts: "0/2 cells done", done: 0, left: 2})
		at = 12
		p.report(stage{phase: "sampling", counts: "2/2 cells done", done: 2, left: 0})
		p.finish()
		if want := "serbench: sampling: 2/2 cells done (100%), 12s of the budget 10s used\n"; !strings.HasSuffix(sb.String(), want) {
			t.Errorf("lines:\n%s\nwant the last:\n%s", sb.String(), want)
		}
	})
	t.Run("terminal", func(t *testing.T) {
		var sb strings.Builder
		at := 0
		p := newProgress(&sb, start, "rounds")
		p.now, p.bar = fakeClock(start, &at), newBar(&sb)
		for i := 1; i <= 3; i++ {
			at = i
			p.update(i, 4)
		}
		out := sb.String()
		for _, want := range []string{
			"serbench: 1/4 rounds (25%), 1s elapsed",
			"serbench: 2/4 rounds (50%), 2s elapsed, about 2s left",
			"serbench: 3/4 rounds (75%), 3s elapsed, about 1s left",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("terminal output %q lacks %q", out, want)
			}
		}
		if strings.Contains(out, "\n") {
			t.Errorf("terminal output %q has a newline: the bar is one line rewritten", out)
		}
		p.finish()
		if end := sb.String()[len(out):]; !strings.HasPrefix(end, "\r") || strings.Contains(end, "serbench:") {
			t.Errorf("finish wrote %q, want the line cleared", end)
		}
	})
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
