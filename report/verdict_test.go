package report_test

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/verdict"
)

// gateComparison is a comparison by speed-up with one row per verdict at
// 5%, built by hand: each row's interval decides.
func gateComparison() *compare.Comparison {
	row := func(codec string, change, lo, hi float64, sig, outside bool) compare.CompareRow {
		return compare.CompareRow{Cell: compare.Cell{Codec: codec, Scenario: "s", Op: "marshal"}, Compared: true, Basis: compare.BasisPairs,
			Old: results.Row{OK: true}, New: results.Row{OK: true},
			OldValue: 2, NewValue: 2 / (1 + change), Change: change, ChangeInterval: &[2]float64{lo, hi},
			Significant: sig, OutsideNoise: outside, Q: 0.001}
	}
	// Three runs a side: each row is judged on its own, not against the
	// shift of its group (compare.ProcessShift).
	return &compare.Comparison{By: compare.BySpeedup, Baseline: "json", Alpha: 0.05, NewName: "new.json", OldRuns: 3, NewRuns: 3, Rows: []compare.CompareRow{
		row("regressed", 0.10, 0.07, 0.13, true, true),
		row("straddles", 0.07, 0.02, 0.12, true, true),
		row("overlap", 0.10, 0.07, 0.13, true, false),
		row("unchanged", 0.01, -0.02, 0.04, false, false),
		row("improved", -0.2, -0.25, -0.15, true, true),
		row("json", 0.30, 0.25, 0.35, true, true), // the baseline's own: no gate by time
		{Cell: compare.Cell{Codec: "nointerval", Scenario: "s", Op: "marshal"}, Compared: true, Basis: compare.BasisPairs, Change: 0.2, Significant: true, OutsideNoise: true,
			Old: results.Row{OK: true}, New: results.Row{OK: true}},
	}}
}

func TestJudgeRows(t *testing.T) {
	c := gateComparison()
	want := map[string]verdict.Verdict{"regressed": verdict.Regressed, "straddles": verdict.Inconclusive, "overlap": verdict.Inconclusive,
		"unchanged": verdict.Unchanged, "improved": verdict.Improved, "nointerval": verdict.Inconclusive}
	if err := compare.ApplyGate([]*compare.Comparison{c}, 0.05); err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Rows {
		j, ok, err := compare.Judge(c, r, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		if r.Codec == "json" {
			if ok || r.Verdict != "" {
				t.Errorf("the baseline's own cell judged by time: %v %q", ok, r.Verdict)
			}
			continue
		}
		if !ok || j.Verdict != want[r.Codec] || r.Verdict != want[r.Codec] {
			t.Errorf("%s: Judge %s (ok %v), row %s; want %s", r.Codec, j.Verdict, ok, r.Verdict, want[r.Codec])
		}
	}
	if g := c.Gate; g == nil || g.Threshold != 0.05 || g.Regressed != 1 || g.Inconclusive != 3 {
		t.Errorf("Gate %+v, want 5%%, 1 regressed, 3 inconclusive", c.Gate)
	}
	if _, _, err := compare.Judge(c, c.Rows[0], -0.01); err == nil {
		t.Error("negative threshold: no error")
	}
}

func TestGateLines(t *testing.T) {
	cs := []*compare.Comparison{gateComparison()}
	regs, err := compare.RegressionLines(cs, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if len(regs) != 1 || regs[0] != "new.json: codec=regressed scenario=s op=marshal: speed-up 2.00× → 1.82× (+10.0% [+7.0%, +13.0%] time relative to the baseline, q=0.001), the interval lies beyond 5%" {
		t.Errorf("regressions %q", regs)
	}
	unsure, err := compare.InconclusiveLines(cs, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	wants := []string{
		"codec=straddles scenario=s op=marshal: speed-up 2.00× → 1.87× (+7.0% [+2.0%, +12.0%] time relative to the baseline, q=0.001), inconclusive at 5%: the interval reaches 3.0 points past 5% (2.5× too wide; the smallest change this run resolves is ±5.0%): more samples (-count, -target), replicate runs (run -processes 3) or a quieter machine would resolve it",
		"codec=overlap scenario=s op=marshal", "the two runs' own intervals overlap",
		"codec=nointerval scenario=s op=marshal", "too few samples for an interval",
	}
	all := strings.Join(unsure, "\n")
	for _, w := range wants {
		if !strings.Contains(all, w) {
			t.Errorf("inconclusive lines lack %q:\n%s", w, all)
		}
	}
	if len(unsure) != 3 {
		t.Errorf("%d inconclusive lines, want 3", len(unsure))
	}
	// A change just beyond the limit prints with the digits that show it.
	c := gateComparison()
	c.Rows = c.Rows[:1]
	c.Rows[0].Change, c.Rows[0].ChangeInterval = 0.0504, &[2]float64{0.0501, 0.0507}
	regs, _ = compare.RegressionLines([]*compare.Comparison{c}, 0.05)
	if len(regs) != 1 || !strings.Contains(regs[0], "(+5.04% [+5.01%, +5.1%] time") {
		t.Errorf("regressions %q, want +5.04%% [+5.01%%, +5.1%%]", regs)
	}
}

// TestCompareRunsInterval: between replicate runs the row's interval is
// the Welch interval, and it holds the change.
func TestCompareRunsInterval(t *testing.T) {
	olds := []*results.Run{fixture(), fixture(), fixture()}
	news := []*results.Run{newFixture(), newFixture(), newFixture()}
	for i, d := range append(olds, news...) {
		for j := range d.Results {
			d.Results[j].Speedup *= 1 + 0.01*float64(i%3)
		}
	}
	c, err := compare.CompareRuns(olds, news, compare.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range c.Rows {
		if r.Basis != compare.BasisRuns {
			continue
		}
		n++
		if iv := r.ChangeInterval; iv == nil || !(iv[0] <= r.Change && r.Change <= iv[1]) {
			t.Errorf("%v: interval %v does not hold the change %v", r.Cell, r.ChangeInterval, r.Change)
		}
	}
	if n == 0 {
		t.Fatal("no row tested between runs")
	}
}
