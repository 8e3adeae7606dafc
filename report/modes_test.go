package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/stats"
)

// regimeDoc is the run of two cells with 12 samples each: msgpack's
// alternate between 8.2 and 14.5 µs (a sibling hyperthread busy half the
// time), encoding/json's spread 2% around 20 µs. pairs, when not nil, are
// every cell's pair ratios.
func regimeDoc(pairs []float64) *results.Run {
	two := []float64{8271, 14535, 8190, 14610, 8305, 14402, 8250, 8330, 14488, 14560, 8212, 14390}
	var one []float64
	for i := range 12 {
		one = append(one, 20000*(1+0.02*float64(i%5-2)/2))
	}
	res := func(c string, s []float64) results.Row {
		med, lo, hi := stats.Summarize(s)
		return results.Row{Codec: c, Scenario: "sse-event", Op: "marshal", NsPerOp: med, NsPerOpLo: lo, NsPerOpHi: hi,
			SizeBytes: 184, OK: true, Samples: s, Iterations: 100, PairRatios: pairs}
	}
	return results.NewRun(results.Inputs{Env: fixture().Env, Baseline: "encoding/json", Count: 12,
		Rows: []results.Row{res("encoding/json", one), res("msgpack", two)}})
}

// TestRegimesMark checks that the table, Markdown and HTML reports mark the
// cell with two regimes, give them in its footnote and explain the mark
// once, and that a document without regimes has neither.
func TestRegimesMark(t *testing.T) {
	doc := regimeDoc(nil)
	var js bytes.Buffer
	if err := results.WriteJSON(&js, doc); err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(js.Bytes()); err != nil {
		t.Errorf("a document with regimes: %v", err)
	}
	const footnote = "2 regimes: 8.26 µs fast (50%), 14.5 µs slow (1.76x)"
	legend := report.ModesMark + ": two speed regimes (1 of 2 cells): the samples form two clusters"
	for _, format := range []string{"table", "markdown", "html"} {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := report.Write(&buf, format, doc, nil); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			for _, want := range []string{report.ModesMark + " [1]", footnote, legend} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "Speed-ups are paired") {
				t.Errorf("a run without pairs says its speed-ups are paired:\n%s", out)
			}
			if n := strings.Count(out, report.ModesMark); n != 2 {
				t.Errorf("%s appears %d times, want twice (the cell and the legend)", report.ModesMark, n)
			}
			buf.Reset()
			paired := regimeDoc([]float64{2, 2, 2})
			if err := report.Write(&buf, format, paired, nil); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), "speed cancels in it; ~ = not significant (sign test") {
				t.Errorf("a paired run's legend does not describe paired speed-ups:\n%s", buf.String())
			}
			if !strings.Contains(buf.String(), "Speed-ups are paired") {
				t.Errorf("a paired run with regimes does not say its speed-ups hold:\n%s", buf.String())
			}
			buf.Reset()
			if err := report.Write(&buf, format, fixture(), nil); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(buf.String(), report.ModesMark) || strings.Contains(buf.String(), "regimes") {
				t.Errorf("a run without regimes mentions them:\n%s", buf.String())
			}
		})
	}
}
