package gate_test

import (
	"math"
	"strings"
	"testing"

	"github.com/serbench/serbench/gate"
	"github.com/serbench/serbench/verdict"
)

// judged is a figure of time judged by verdict.Judge at limit.
func judged(t *testing.T, point, lo, hi float64, significant bool, limit float64) gate.Figure {
	t.Helper()
	c := verdict.Change{Point: point, Lo: lo, Hi: hi, Significant: significant}
	j, err := verdict.Judge(c, limit)
	if err != nil {
		t.Fatal(err)
	}
	return gate.Figure{Name: "Encode-8", Metric: "ns/op", Base: 1020, Head: 1020 * (1 + point), Change: c, Q: 0.0039, Judgement: j,
		Correction: "benjamini-hochberg over the 4 benchmarks",
		Remedies:   []string{"about 52 rounds (-rounds 52)", "-layouts 8", "a quieter runner"}}
}

func TestFigure(t *testing.T) {
	nan := math.NaN()
	alloc := gate.Figure{Name: "Encode-8", Metric: "allocs/op", Base: 1, Head: 2, Counts: true, Change: verdict.Change{Point: 1, Lo: nan, Hi: nan},
		Judgement: verdict.Judgement{Verdict: verdict.Regressed}, Evidence: "higher in every one of 10 rounds"}
	for _, tc := range []struct {
		name string
		f    gate.Figure
		want verdict.Verdict
		line string
	}{
		{"regressed", judged(t, 0.123, 0.101, 0.14, true, 0.05), verdict.Regressed,
			"Encode-8: ns/op +12.3% [+10.1%, +14.0%] (1,020 → 1,145, q=0.0039), the interval lies beyond 5%"},
		{"unchanged", judged(t, 0.01, -0.02, 0.04, false, 0.05), verdict.Unchanged,
			"Encode-8: ns/op +1.0% [-2.0%, +4.0%] (1,020 → 1,030, q=0.0039)"},
		{"improved", judged(t, -0.2, -0.25, -0.15, true, 0.05), verdict.Improved,
			"Encode-8: ns/op -20.0% [-25.0%, -15.0%] (1,020 → 816, q=0.0039), the interval lies below -5%"},
		{"inconclusive", judged(t, 0.07, 0.02, 0.12, true, 0.05), verdict.Inconclusive,
			"Encode-8: ns/op +7.0% [+2.0%, +12.0%] (1,020 → 1,091, q=0.0039), inconclusive at 5%: the interval reaches 3.0 points past 5% (2.5× too wide; the smallest change this run resolves is ±5.0%): about 52 rounds (-rounds 52), -layouts 8 or a quieter runner would resolve it"},
		{"inconclusive, corrected", judged(t, 0.08, 0.06, 0.1, false, 0.05), verdict.Inconclusive,
			"Encode-8: ns/op +8.0% [+6.0%, +10.0%] (1,020 → 1,102, q=0.0039), inconclusive at 5%: the interval lies beyond 5%, but q=0.0039 after benjamini-hochberg over the 4 benchmarks is above alpha: the correction left it not significant"},
		{"inconclusive, no interval", judged(t, 0.08, nan, nan, false, 0.05), verdict.Inconclusive,
			"Encode-8: ns/op +8.0% (1,020 → 1,102, q=0.0039), inconclusive at 5%: too few samples for an interval"},
		{"allocation rises", alloc, verdict.Regressed,
			"Encode-8: allocs/op 1 → 2, higher in every one of 10 rounds"},
		// A change that rounds to the limit prints with the digits that
		// show which side of it it lies on.
		{"at the limit", judged(t, 0.0504, 0.0503, 0.051, true, 0.05), verdict.Regressed,
			"Encode-8: ns/op +5.04% [+5.03%, +5.1%] (1,020 → 1,071, q=0.0039), the interval lies beyond 5%"},
		{"just within the limit", judged(t, 0.0496, 0.0495, 0.0499, true, 0.05), verdict.Unchanged,
			"Encode-8: ns/op +4.96% [+4.95%, +4.99%] (1,020 → 1,071, q=0.0039)"},
		{"a hair within the limit", judged(t, 0.04997, -0.04, 0.126, true, 0.05), verdict.Inconclusive,
			"Encode-8: ns/op +4.997% [-4.0%, +12.6%] (1,020 → 1,071, q=0.0039), inconclusive at 5%: the interval reaches 7.6 points past 5% (too wide to decide; the smallest change this run resolves is ±9.0%): about 52 rounds (-rounds 52), -layouts 8 or a quieter runner would resolve it"},
		{"equal to the limit", judged(t, 0.05, 0.04, 0.06, true, 0.05), verdict.Inconclusive,
			"Encode-8: ns/op +5.0% [+4.0%, +6.0%] (1,020 → 1,071, q=0.0039), inconclusive at 5%: the interval reaches 1.0 points past 5% (too wide to decide; the smallest change this run resolves is ±1.0%): about 52 rounds (-rounds 52), -layouts 8 or a quieter runner would resolve it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.f.Judgement.Verdict; got != tc.want {
				t.Errorf("verdict %s, want %s", got, tc.want)
			}
			if got := tc.f.String(); got != tc.line {
				t.Errorf("line\n%s\nwant\n%s", got, tc.line)
			}
		})
	}
}

func TestSortStatus(t *testing.T) {
	nan := math.NaN()
	reg := judged(t, 0.2, 0.15, 0.25, true, 0.05)
	unsure := judged(t, 0.07, 0.02, 0.12, true, 0.05)
	better := judged(t, -0.2, -0.25, -0.15, true, 0.05)
	same := judged(t, 0, -0.01, 0.01, false, 0.05)
	mem := gate.Figure{Name: "Alloc-8", Metric: "B/op", Counts: true, Change: verdict.Change{Point: nan, Lo: nan, Hi: nan},
		Judgement: verdict.Judgement{Verdict: verdict.Regressed}, Evidence: "higher in every one of 10 rounds"}
	for _, tc := range []struct {
		name                            string
		figs                            []gate.Figure
		regressed, inconclusive, better int
		status                          int
	}{
		{"none", nil, 0, 0, 0, gate.StatusPassed},
		{"unchanged", []gate.Figure{same, same}, 0, 0, 0, gate.StatusPassed},
		{"improved", []gate.Figure{same, better}, 0, 0, 1, gate.StatusPassed},
		{"inconclusive", []gate.Figure{unsure, better}, 0, 1, 1, gate.StatusInconclusive},
		{"regressed", []gate.Figure{unsure, reg, same}, 1, 1, 0, gate.StatusRegressed},
		{"allocation", []gate.Figure{same, mem}, 1, 0, 0, gate.StatusRegressed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := gate.Sort(tc.figs)
			if len(s.Regressed) != tc.regressed || len(s.Inconclusive) != tc.inconclusive || len(s.Improved) != tc.better {
				t.Errorf("sorted %d regressed, %d inconclusive, %d improved; want %d, %d, %d",
					len(s.Regressed), len(s.Inconclusive), len(s.Improved), tc.regressed, tc.inconclusive, tc.better)
			}
			if s.Status() != tc.status {
				t.Errorf("status %d, want %d", s.Status(), tc.status)
			}
		})
	}
	// Sort keeps the order it was given within a verdict.
	s := gate.Sort([]gate.Figure{mem, same, reg})
	if len(s.Regressed) != 2 || s.Regressed[0].Name != "Alloc-8" || s.Regressed[1].Name != "Encode-8" {
		t.Errorf("regressed %v, want Alloc-8 then Encode-8", s.Regressed)
	}
}

func TestSpeedupLine(t *testing.T) {
	f := judged(t, 0.109, 0.082, 0.135, true, 0.05)
	f.Name, f.Metric, f.Speedup, f.Base, f.Head, f.Q = "codec=C scenario=S op=O", "speed-up", true, 5.03, 4.53, 8.7e-05
	want := "codec=C scenario=S op=O: speed-up 5.03× → 4.53× (+10.9% [+8.2%, +13.5%] time relative to the baseline, q=8.7e-05), the interval lies beyond 5%"
	if got := f.String(); got != want {
		t.Errorf("line\n%s\nwant\n%s", got, want)
	}
	if !strings.HasPrefix(f.Why(), "the interval lies beyond") {
		t.Errorf("Why %q", f.Why())
	}
}

func TestAmount(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{{1146, "1,146"}, {-1234567, "-1,234,567"}, {12.34, "12.3"}, {0.2512, "0.251"}, {100.4, "100"}, {0, "0"}} {
		if got := gate.Amount(tc.x); got != tc.want {
			t.Errorf("Amount(%v) = %q, want %q", tc.x, got, tc.want)
		}
	}
}
