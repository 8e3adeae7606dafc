package ab_test

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/ab"
	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/gate"
	"github.com/serbench/serbench/verdict"
)

// TestOneGate feeds the same change of ns/op (point, interval, corrected
// q) through ab's adapter (ab.Figures) and compare's (compare.Figures)
// and checks that both give the same verdict and the same line but for
// the name and each tool's remedies.
func TestOneGate(t *testing.T) {
	for _, tc := range []struct {
		name          string
		point, lo, hi float64
		q             float64
		want          verdict.Verdict
	}{
		{"regressed", 0.12, 0.1, 0.14, 0.004, verdict.Regressed},
		{"unchanged", 0.01, -0.02, 0.04, 0.6, verdict.Unchanged},
		{"inconclusive", 0.07, 0.02, 0.12, 0.004, verdict.Inconclusive},
		{"corrected", 0.08, 0.06, 0.1, 0.2, verdict.Inconclusive},
		{"at the limit", 0.0504, 0.0501, 0.0507, 0.004, verdict.Regressed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ratios := make([]float64, 20)
			for i := range ratios {
				ratios[i] = 1 + tc.point
			}
			res := &ab.Result{Options: ab.Options{Alpha: 0.05, Layouts: 4}, Benchmarks: []ab.Benchmark{{
				Name: "Encode-8", Measure: ab.MeasureTime, Ratios: ratios, BaseNs: 1000, HeadNs: 1000 * (1 + tc.point),
				Ratio: 1 + tc.point, RatioLo: 1 + tc.lo, RatioHi: 1 + tc.hi, Q: tc.q,
			}}}
			// Three runs a side: with one process a side compare reads a
			// change of time beyond the limit inconclusive
			// (compare.OneProcess), which ab, whose rounds alternate
			// processes, has no need to.
			c := &compare.Comparison{By: compare.ByNs, Alpha: 0.05, NewName: "new.json", OldRuns: 3, NewRuns: 3, Rows: []compare.CompareRow{{
				Cell:     compare.Cell{Codec: "cbor", Scenario: "s", Op: "marshal"},
				Compared: true, Basis: compare.BasisNs, OldValue: 1000, NewValue: 1000 * (1 + tc.point),
				Change: tc.point, ChangeInterval: &[2]float64{tc.lo, tc.hi}, Q: tc.q, Significant: tc.q <= 0.05, OutsideNoise: true,
			}}}
			fromAB := ab.Figures(res, 0.05)
			fromCompare, err := compare.Figures(c, 0.05)
			if err != nil {
				t.Fatal(err)
			}
			if len(fromAB) != 1 || len(fromCompare) != 1 {
				t.Fatalf("%d figures from ab, %d from compare; want 1 each", len(fromAB), len(fromCompare))
			}
			a, b := fromAB[0], fromCompare[0]
			if a.Judgement.Verdict != tc.want || b.Judgement.Verdict != tc.want {
				t.Errorf("ab %s, compare %s; want %s", a.Judgement.Verdict, b.Judgement.Verdict, tc.want)
			}
			if la, lb := wording(a), wording(b); la != lb {
				t.Errorf("lines differ:\nab:      %s\ncompare: %s", la, lb)
			}
			if gate.Sort(fromAB).Status() != gate.Sort(fromCompare).Status() {
				t.Errorf("exit status: ab %d, compare %d", gate.Sort(fromAB).Status(), gate.Sort(fromCompare).Status())
			}
		})
	}
}

// wording is f's line without what each tool words its own way: the
// name, the family of the correction (benchmarks, tests of a comparison)
// and the remedies (what follows "): " in an inconclusive line, which
// names each tool's flags).
func wording(f gate.Figure) string {
	s := strings.Replace(strings.TrimPrefix(f.String(), f.Name), f.Correction, "the family", 1)
	if i := strings.LastIndex(s, "): "); i >= 0 && strings.HasSuffix(s, " would resolve it") {
		s = s[:i+1]
	}
	return s
}
