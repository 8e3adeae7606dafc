package ab

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/verdict"
)

// TestLayoutsDisagree: 20 rounds over 4 code layouts in which head reads
// 12%, 12%, 10% and 1% slower, each layout steady over its rounds (a
// change that moves code: each layout puts it somewhere else). Over the
// rounds alone the interval is [+10%, +12%], beyond 5%; between the
// layouts it reaches below 5%, so the gate reads inconclusive and names
// more layouts, not more rounds. With the same figures built once (one
// layout), the rounds' interval decides: regressed.
func TestLayoutsDisagree(t *testing.T) {
	perLayout := []float64{1.12, 1.12, 1.10, 1.01}
	var base, head [][]byte
	for r := range 20 {
		k := r / 2 % 4
		base = append(base, output(line("Moved-2", 1000, 0, 0)))
		head = append(head, output(line("Moved-2", 1000*perLayout[k], 0, 0)))
	}
	for _, tc := range []struct {
		layouts int
		want    verdict.Verdict
	}{{4, verdict.Inconclusive}, {1, verdict.Regressed}} {
		opts, err := Options{Base: "main", Layouts: tc.layouts}.Resolved()
		if err != nil {
			t.Fatal(err)
		}
		res, err := analyze(opts, base, head)
		if err != nil {
			t.Fatal(err)
		}
		b := res.Benchmarks[0]
		if got := res.Judge(b, 0.05).Verdict; got != tc.want {
			t.Errorf("%d layouts: %s [%v, %v], layouts [%v, %v]: %s, want %s", tc.layouts, percent(b.Change()), b.RatioLo, b.RatioHi, b.LayoutLo, b.LayoutHi, got, tc.want)
		}
		if tc.layouts == 1 {
			if b.Layouts != nil || b.LayoutLo != 0 {
				t.Errorf("one layout: Layouts %v, LayoutLo %v; want none", b.Layouts, b.LayoutLo)
			}
			continue
		}
		if !b.LayoutsWider() || b.LayoutLo > 1.05 {
			t.Errorf("4 layouts: interval [%v, %v], between layouts [%v, %v]: want the layouts' interval to widen it below 1.05", b.RatioLo, b.RatioHi, b.LayoutLo, b.LayoutHi)
		}
		lines := Inconclusive(res, 0.05)
		if len(lines) != 1 {
			t.Fatalf("%d inconclusive lines, want 1", len(lines))
		}
		want := "more code layouts (-layouts 8; the 4 layouts' median changes read +1.0% to +12.0%"
		if s := lines[0].String(); !strings.Contains(s, want) || strings.Contains(s, "rounds (-rounds") {
			t.Errorf("inconclusive line %q: want %q and no advice of more rounds", s, want)
		}
	}
}
