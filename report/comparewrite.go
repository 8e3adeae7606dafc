package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/results"
)

// CompareFormats lists the formats WriteComparison accepts.
var CompareFormats = compareFormats.Names()

// CompareSchema names the JSON document WriteComparison writes
// (docs/reference.md, "JSON documents").
const CompareSchema = document.Compare

// ComparisonDocument is the JSON form of one or more comparisons against
// the same base run.
type ComparisonDocument struct {
	Schema      string                `json:"schema"`
	Comparisons []*compare.Comparison `json:"comparisons"`
}

// WriteComparison renders cs, each a comparison of the same base run with
// another run, in the named format: "table" (aligned text, one table per
// scenario and comparison), "markdown", "csv" (one record per row, then one
// per cell present in one run only; the last two fields name the files),
// "json" (a ComparisonDocument) or "bmf" (the Bencher Metric Format, see
// BMFOfComparisons). An unknown format is an error that lists the valid
// ones.
func WriteComparison(w io.Writer, format string, cs ...*compare.Comparison) error {
	return compareFormats.Write(w, format, cs)
}

// compareFormats are the formats of a comparison document.
var compareFormats = document.Formats[[]*compare.Comparison]{Package: "report", Document: "comparison", List: []document.Format[[]*compare.Comparison]{
	{Name: "table", Write: func(w io.Writer, cs []*compare.Comparison) error { return compareTexts(w, cs, false) }},
	{Name: "markdown", Write: func(w io.Writer, cs []*compare.Comparison) error { return compareTexts(w, cs, true) }},
	{Name: "csv", Write: compareCSV},
	{Name: "json", Write: func(w io.Writer, cs []*compare.Comparison) error {
		return document.WriteJSON(w, "report", "  ", ComparisonDocument{Schema: CompareSchema, Comparisons: cs})
	}},
	{Name: "bmf", Write: func(w io.Writer, cs []*compare.Comparison) error { return document.WriteBMF(w, BMFOfComparisons(cs)) }},
}}

// compareTexts writes cs as text (md false) or Markdown, a blank line
// between comparisons.
func compareTexts(w io.Writer, cs []*compare.Comparison, md bool) error {
	for i, c := range cs {
		if i > 0 {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		// Markdown too: its text ends up in a terminal as often as on a page.
		if err := document.WriteTerminal(w, func(w io.Writer) error { return compareText(w, c, md) }); err != nil {
			return err
		}
	}
	return nil
}

var compareHeader = []string{"codec", "op", "old ns/op", "new ns/op", "delta", "", "B/op", "allocs/op", "note"}

// compareSpeedupHeader is the header with BySpeedup: the raw ns/op change
// and both speed-ups beside the delta of the compared measure.
var compareSpeedupHeader = []string{"codec", "op", "old ns/op", "new ns/op", "ns/op Δ", "old ×", "new ×", "delta", "", "B/op", "allocs/op", "note"}

// compareGrids builds one grid per scenario of c.Rows.
func compareGrids(c *compare.Comparison) []grid {
	var order []string
	rows := map[string][]compare.CompareRow{}
	for _, r := range c.Rows {
		if _, ok := rows[r.Scenario]; !ok {
			order = append(order, r.Scenario)
		}
		rows[r.Scenario] = append(rows[r.Scenario], r)
	}
	speedup := c.By != compare.ByNs
	var out []grid
	for _, sc := range order {
		g := grid{title: sc, Table: document.Table{Header: compareHeader, Numeric: []bool{false, false, true, true, true, false, true, true, false}}}
		if speedup {
			g.Header = compareSpeedupHeader
			g.Numeric = []bool{false, false, true, true, true, true, true, true, false, true, true, false}
		}
		// row lays out the columns of either header.
		row := func(codec, op, oldNs, newNs, nsDelta, oldX, newX, delta, stat, bytes, allocs, note string) []string {
			if speedup {
				return []string{codec, op, oldNs, newNs, nsDelta, oldX, newX, delta, stat, bytes, allocs, note}
			}
			return []string{codec, op, oldNs, newNs, delta, stat, bytes, allocs, note}
		}
		for _, r := range rows[sc] {
			var notes []string
			side := func(label string, x results.Row) string {
				switch x.Outcome() {
				case codec.NA:
					notes = append(notes, label+" n/a "+g.notes.Mark(x.Error))
					return "n/a"
				case codec.Failed:
					notes = append(notes, label+" ✗ "+g.notes.Mark(x.Error))
					return "-"
				case codec.Changed:
					notes = append(notes, label+" ✗ "+g.notes.Mark(x.Error))
				}
				return NsCell(x)
			}
			oldNs, newNs := side("old", r.Old), side("new", r.New)
			delta, stat, bytes, allocs, nsDelta, oldX, newX := "", "", "", "", "", "", ""
			if r.Compared {
				delta, stat = r.Delta, "("+r.Stat+")"
				if r.ChangeInterval != nil {
					stat = fmt.Sprintf("(%s, ±%.1f%%)", r.Stat, 100*r.Resolution)
				}
				nsDelta = fmt.Sprintf("%+.1f%%", 100*r.NsChange)
				if r.Basis == compare.BasisPairs || r.Basis == compare.BasisRounds || r.Basis == compare.BasisRuns {
					oldX, newX = fmt.Sprintf("%.2f×", r.OldValue), fmt.Sprintf("%.2f×", r.NewValue)
				}
				bytes = arrow(r.Old.BytesPerOp, r.New.BytesPerOp) + metricDelta(r.Bytes, r.Old.BytesPerOp != r.New.BytesPerOp)
				allocs = arrow(r.Old.AllocsPerOp, r.New.AllocsPerOp) + metricDelta(r.Allocs, r.Old.AllocsPerOp != r.New.AllocsPerOp)
				if r.SizeChanged {
					notes = append(notes, fmt.Sprintf("size %d → %d B", r.Old.SizeBytes, r.New.SizeBytes))
				}
				for _, w := range r.Warnings {
					notes = append(notes, g.notes.Mark(w))
				}
			}
			g.Rows = append(g.Rows, row(r.Codec, r.Op, oldNs, newNs, nsDelta, oldX, newX, delta, stat, bytes, allocs, strings.Join(notes, "; ")))
		}
		for _, m := range c.Geomean {
			if m.Scenario == sc {
				g.Rows = append(g.Rows, row("geomean", m.Op, document.Num(m.Old), document.Num(m.New), fmt.Sprintf("%+.1f%%", 100*m.Change), "", "",
					fmt.Sprintf("%+.2f%%", 100*m.ByChange), fmt.Sprintf("(n=%d cells)", m.N), "", "", ""))
			}
		}
		out = append(out, g)
	}
	return out
}

// metricDelta prints " (-25.00%)" or " (~)" after a changed B/op or
// allocs/op that could be tested, and nothing otherwise.
func metricDelta(m *compare.MetricChange, changed bool) string {
	if m == nil || !changed {
		return ""
	}
	return " (" + m.Delta + ")"
}

// arrow prints "192" when a figure did not change, "192 → 176" when it did.
func arrow(a, b int64) string {
	if a == b {
		return strconv.FormatInt(a, 10)
	}
	return fmt.Sprintf("%d → %d", a, b)
}

func compareText(w io.Writer, c *compare.Comparison, md bool) error {
	ew := document.NewErrWriter(w)
	oldName, newName := label(c.OldName, "old"), label(c.NewName, "new")
	if md {
		fmt.Fprintf(ew, "old: `%s`  \nnew: `%s`\n", oldName, newName)
	} else {
		fmt.Fprintf(ew, "old: %s\nnew: %s\n", oldName, newName)
	}
	head := func(l string) {
		if md {
			fmt.Fprintf(ew, "%s  \n", document.MarkdownCell(l))
		} else {
			fmt.Fprintln(ew, l)
		}
	}
	if c.Toolchains != "" {
		head("note: " + c.Toolchains)
	}
	if c.EnvDiff != nil {
		head("warning: the runs differ in " + c.EnvDiff.String() + ": different machines or toolchains")
	}
	if c.Basis != "" {
		head(c.Basis)
	}
	if g := c.Gate; g != nil {
		head(fmt.Sprintf("gate -max-regression %.3g%%: %d cells regressed by time, %d inconclusive (not resolved at %.3g%%), the others within it", 100*g.Threshold, g.Regressed, g.Inconclusive, 100*g.Threshold))
	}
	for _, g := range compareGrids(c) {
		fmt.Fprintln(ew)
		if md {
			fmt.Fprintf(ew, "### %s\n\n", document.MarkdownCell(g.title))
			writeMarkdownGrid(ew, g)
		} else {
			fmt.Fprintln(ew, document.TerminalText(g.title))
			for _, l := range g.Aligned() {
				fmt.Fprintln(ew, l)
			}
			_ = g.notes.WriteTerminal(ew) // the error is ew's too
		}
	}
	only := func(which string, cells []compare.Cell) {
		if len(cells) == 0 {
			return
		}
		fmt.Fprintln(ew)
		fmt.Fprintf(ew, "only in %s:\n", which)
		if md {
			fmt.Fprintln(ew)
		}
		for _, x := range cells {
			if md {
				fmt.Fprintf(ew, "- %s\n", document.MarkdownCell(x.Codec+" "+x.Scenario+" "+x.Op))
			} else {
				fmt.Fprintf(ew, "  %s\n", document.TerminalText(x.Codec+" "+x.Scenario+" "+x.Op))
			}
		}
	}
	only(oldName, c.OnlyOld)
	only(newName, c.OnlyNew)
	fmt.Fprintln(ew)
	lines := []string{
		"old, new ns/op: median ± half-width of its 95% confidence interval.",
		fmt.Sprintf("delta: change of the median ns/op; ~ = not significant (Mann-Whitney U, Benjamini-Hochberg q > %v over all %d tests), as benchstat prints it.", c.Alpha, c.Tests()),
		"geomean: geometric mean of the medians over the cells compared in both runs, per operation.",
		resolvesLegend,
		"B/op, allocs/op: old → new medians, with the change tested as ns/op is when both runs have per-sample figures. ✗: did not round-trip exactly or was not timed (the note says why).",
	}
	if c.By != compare.ByNs {
		lines = []string{
			"old, new ns/op: median ± half-width of its 95% confidence interval; ns/op Δ: change of the median ns/op, not tested (it moves with the machine's speed between the runs).",
			fmt.Sprintf("old ×, new ×: speed-up over %s within the run.", c.Baseline),
			fmt.Sprintf("delta: change of the compared measure, + = slower: old speed-up over new, minus 1, or the change of ns/op (for %s's own cells and cells without a speed-up, the new run's rescaled by the calibration loop when the test says meter); ~ = not significant (Mann-Whitney U, Benjamini-Hochberg q > %v over all %d tests); the test's samples: pairs = per-pair speed-ups, rounds = %s's i-th sample over the cell's i-th (taken in the same round), meter = ns/op rescaled by the calibration loop, none named = ns/op.", c.Baseline, c.Alpha, c.Tests(), c.Baseline),
			"geomean: geometric mean over the cells compared in both runs, per operation, of the medians (ns/op columns) and of the deltas.",
			resolvesLegend,
			"B/op, allocs/op: old → new medians, tested as ns/op is when both runs have per-sample figures. ✗: did not round-trip exactly or was not timed (the note says why).",
		}
	}
	if c.OldEnv.Line() != c.NewEnv.Line() {
		lines = append(lines, "old env: "+c.OldEnv.Line(), "new env: "+c.NewEnv.Line())
	} else {
		lines = append(lines, "env: "+c.OldEnv.Line())
	}
	for _, l := range lines {
		if md {
			fmt.Fprintf(ew, "%s  \n", l)
		} else {
			fmt.Fprintln(ew, l)
		}
	}
	return ew.Err()
}

// resolvesLegend explains the ± after a row's test figures.
const resolvesLegend = "±: the smallest change the comparison resolves, the larger distance from the change to a bound of its 95% interval; a gate below it cannot read unchanged."

func label(name, def string) string {
	if name == "" {
		return def
	}
	return name
}

// CompareCSVHeader is the first record of the csv comparison format.
var CompareCSVHeader = []string{"codec", "scenario", "op", "in", "old_ns_per_op", "new_ns_per_op", "change", "p",
	"significant", "old_n", "new_n", "old_bytes_per_op", "new_bytes_per_op", "old_allocs_per_op", "new_allocs_per_op",
	"old_ok", "new_ok", "old_error", "new_error", "basis", "ns_change", "old_file", "new_file"}

// compareCSVNumeric marks CompareCSVHeader's number columns (a change can
// be negative, and stays a number); the others, text, go through
// document.CSVCell.
var compareCSVNumeric = []bool{false, false, false, false, true, true, true, true,
	false, true, true, true, true, true, true,
	false, false, false, false, false, true, false, false}

func compareCSV(w io.Writer, cs []*compare.Comparison) error {
	t := document.Table{Header: CompareCSVHeader, Numeric: compareCSVNumeric}
	for _, c := range cs {
		t.Rows = append(t.Rows, compareCSVRecords(c)...)
	}
	return t.WriteCSV(w)
}

// compareCSVRecords returns c's records: one per compared cell, then one
// per cell only the old or the new document has.
func compareCSVRecords(c *compare.Comparison) [][]string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	i := func(x int64) string { return strconv.FormatInt(x, 10) }
	var out [][]string
	for _, r := range c.Rows {
		rec := []string{r.Codec, r.Scenario, r.Op, "both", f(r.Old.NsPerOp), f(r.New.NsPerOp), "", "", "",
			strconv.Itoa(len(r.Old.Samples)), strconv.Itoa(len(r.New.Samples)),
			i(r.Old.BytesPerOp), i(r.New.BytesPerOp), i(r.Old.AllocsPerOp), i(r.New.AllocsPerOp),
			strconv.FormatBool(r.Old.OK), strconv.FormatBool(r.New.OK), r.Old.Error, r.New.Error, "", "", c.OldName, c.NewName}
		if r.Compared {
			rec[6], rec[7], rec[8] = f(r.Change), f(r.P), strconv.FormatBool(r.Significant)
			rec[19], rec[20] = r.Basis, f(r.NsChange)
		}
		out = append(out, rec)
	}
	for _, x := range []struct {
		in    string
		cells []compare.Cell
	}{{"old", c.OnlyOld}, {"new", c.OnlyNew}} {
		for _, k := range x.cells {
			rec := make([]string, len(CompareCSVHeader))
			rec[0], rec[1], rec[2], rec[3] = k.Codec, k.Scenario, k.Op, x.in
			rec[len(rec)-2], rec[len(rec)-1] = c.OldName, c.NewName
			out = append(out, rec)
		}
	}
	return out
}
