package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/stats"
)

func init() {
	register("agree", "compare serbench's speed-ups with those of serbench export's plain go test loops, cell by cell, per GC condition", cmdAgree)
}

// defaultAgreeTolerance is the band within which a serbench speed-up agrees
// with the plain loop's: 15%, as in the agreement target of the docs
// (docs/agreement.md).
const defaultAgreeTolerance = 0.15

// cmdAgree reads pairs of files, each a serbench run (JSON or benchfmt) and
// the go test output of `serbench export`'s module taken under the same GC
// condition, and prints how far each cell's speed-up over encoding/json
// differs between the two: a summary per condition and codec (cells,
// within the tolerance, median absolute and worst difference) and the cells beyond
// the tolerance (every cell with -all).
func cmdAgree(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("agree", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tolerance := percentFlag(fs, "tolerance", defaultAgreeTolerance, "a cell agrees when serbench's speed-up is within this of the plain loop's")
	format := formatFlag(fs, "table", []string{"table", "markdown"}, "")
	all := fs.Bool("all", false, "list every cell, not only those beyond the tolerance")
	bycodec := fs.Bool("by-codec", false, "print one row per codec, the conditions side by side (cells within the tolerance, median absolute and worst Δ of each), and nothing else")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench agree [flags] SERBENCH EXPORT [SERBENCH EXPORT ...]")
		fmt.Fprintln(stderr, "Each pair: a serbench run (-format json or benchfmt) and the go test -bench output of the serbench export module, taken under the same -live-heap.")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args, -2, "pairs of files: SERBENCH EXPORT"); help || err != nil {
		return err
	}
	if fs.NArg()%2 != 0 {
		return usagef("agree: want pairs of files SERBENCH EXPORT (got %d arguments)", fs.NArg())
	}
	var conds []agreeCondition
	for i := 0; i < fs.NArg(); i += 2 {
		sb, err := report.ReadFile(fs.Arg(i))
		if err != nil {
			return err
		}
		ex, err := report.ReadFile(fs.Arg(i + 1))
		if err != nil {
			return err
		}
		c := agreeCondition{label: conditionLabel(sb, fs.Arg(i)), cells: agreeCells(sb.Results, ex.Results)}
		if len(c.cells) == 0 {
			return fmt.Errorf("agree: %s and %s have no cell with a speed-up in common", fs.Arg(i), fs.Arg(i+1))
		}
		conds = append(conds, c)
	}
	if *bycodec {
		return writeAgreementByCodec(stdout, conds, *tolerance, *format == "markdown")
	}
	return writeAgreement(stdout, conds, *tolerance, *format == "markdown", *all)
}

// agreeCondition is the cells of one pair of files.
type agreeCondition struct {
	label string
	cells []agreeCell
}

// agreeCell is one (codec, scenario, op) timed on both sides.
type agreeCell struct {
	codec, scenario, op string
	// serbench and export are the speed-ups over the baseline.
	serbench, export float64
}

// diff is serbench's speed-up over the plain loop's, minus 1: +0.53 when
// serbench's is 53% higher.
func (c agreeCell) diff() float64 { return c.serbench/c.export - 1 }

// conditionLabel names a pair by the live heap of the serbench run
// (env.live_heap), or by its file name without the extension when the run
// does not record one (benchfmt): scripts/agree.sh names its files
// serbench-<live heap>.txt.
func conditionLabel(doc *report.Document, path string) string {
	if lh := doc.Env.LiveHeap; lh != nil {
		if lh.TargetBytes == 0 {
			return "live-heap=0"
		}
		return "live-heap=" + scenario.SizeLabel(lh.TargetBytes)
	}
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// agreeCells pairs the cells with a speed-up (the baseline's own excluded)
// that both sides timed, in serbench's order.
func agreeCells(sb, ex []bench.Result) []agreeCell {
	key := func(r bench.Result) string { return r.Codec + "\x00" + r.Scenario + "\x00" + r.Op }
	byKey := map[string]bench.Result{}
	for _, r := range ex {
		byKey[key(r)] = r
	}
	var out []agreeCell
	for _, r := range sb {
		x, ok := byKey[key(r)]
		if !ok || r.Codec == bench.DefaultBaseline || r.Speedup <= 0 || x.Speedup <= 0 {
			continue
		}
		out = append(out, agreeCell{codec: r.Codec, scenario: r.Scenario, op: r.Op, serbench: r.Speedup, export: x.Speedup})
	}
	return out
}

// agreeSummary is the agreement of a group of cells.
type agreeSummary struct {
	cells, within int
	median        float64 // median of |diff|
	worst         agreeCell
}

func summarizeAgreement(cells []agreeCell, tolerance float64) agreeSummary {
	diffs := make([]float64, len(cells))
	for i, c := range cells {
		diffs[i] = c.diff()
	}
	a := stats.Agreement(diffs, tolerance)
	s := agreeSummary{cells: a.Cells, within: a.Within, median: a.MedianAbs}
	if len(cells) > 0 {
		s.worst = cells[a.Worst]
	}
	return s
}

// agreeTable collects rows (a document.Table) and writes them, on flush,
// as aligned text or as a Markdown table.
type agreeTable struct {
	w        io.Writer
	markdown bool
	table    document.Table
}

func newAgreeTable(w io.Writer, markdown bool) *agreeTable {
	return &agreeTable{w: w, markdown: markdown}
}

func (t *agreeTable) row(cols ...string) { t.table.Rows = append(t.table.Rows, cols) }

func (t *agreeTable) header(cols ...string) { t.table.Header = cols }

func (t *agreeTable) flush() error {
	if t.markdown {
		return t.table.WriteMarkdown(t.w)
	}
	ew := document.NewErrWriter(t.w)
	for _, l := range t.table.Aligned() {
		fmt.Fprintln(ew, l)
	}
	return ew.Err()
}

func agreePct(f float64) string            { return fmt.Sprintf("%+.0f%%", 100*f) }
func agreeCellName(c agreeCell) string     { return c.codec + " " + c.scenario + " " + c.op }
func agreeSpeedups(c agreeCell) string     { return fmt.Sprintf("%.2fx vs %.2fx", c.serbench, c.export) }
func agreeWithin(tolerance float64) string { return fmt.Sprintf("within %.0f%%", 100*tolerance) }

// byCodec returns the codecs of cells in their first order, and each
// one's cells.
func byCodec(cells []agreeCell) ([]string, map[string][]agreeCell) {
	var codecs []string
	groups := map[string][]agreeCell{}
	for _, x := range cells {
		if _, ok := groups[x.codec]; !ok {
			codecs = append(codecs, x.codec)
		}
		groups[x.codec] = append(groups[x.codec], x)
	}
	return codecs, groups
}

// writeAgreementByCodec prints one row per codec (and one for all cells),
// with each condition's cells within the tolerance, median absolute Δ and
// worst Δ side by side.
func writeAgreementByCodec(w io.Writer, conds []agreeCondition, tolerance float64, markdown bool) error {
	t := newAgreeTable(w, markdown)
	cols := []string{"codec"}
	var codecs []string
	groups := make([]map[string][]agreeCell, len(conds)) // per condition, by codec
	for i, c := range conds {
		cols = append(cols, c.label+" "+agreeWithin(tolerance), c.label+" median abs Δ", c.label+" worst Δ")
		var cs []string
		cs, groups[i] = byCodec(c.cells)
		groups[i]["all"] = c.cells
		for _, id := range cs {
			if !slices.Contains(codecs, id) {
				codecs = append(codecs, id)
			}
		}
	}
	t.header(cols...)
	for _, id := range append([]string{"all"}, codecs...) {
		row := []string{id}
		for i := range conds {
			g := groups[i][id]
			if len(g) == 0 {
				row = append(row, "", "", "")
				continue
			}
			s := summarizeAgreement(g, tolerance)
			where := s.worst.scenario + " " + s.worst.op
			if id == "all" {
				where = agreeCellName(s.worst)
			}
			row = append(row, fmt.Sprintf("%d of %d", s.within, s.cells), fmt.Sprintf("%.1f%%", 100*s.median),
				agreePct(s.worst.diff())+" ("+where+")")
		}
		t.row(row...)
	}
	return t.flush()
}

// writeAgreement prints, per condition, the summary of all cells and of
// each codec, then the cells beyond the tolerance (all cells with all).
func writeAgreement(w io.Writer, conds []agreeCondition, tolerance float64, markdown, all bool) error {
	t := newAgreeTable(w, markdown)
	t.header("condition", "codec", "cells", agreeWithin(tolerance), "median abs Δ", "worst cell", "serbench vs plain loop", "Δ")
	for _, c := range conds {
		groups := [][]agreeCell{c.cells}
		names := []string{"all"}
		codecs, byID := byCodec(c.cells)
		for _, id := range codecs {
			groups, names = append(groups, byID[id]), append(names, id)
		}
		for i, g := range groups {
			s := summarizeAgreement(g, tolerance)
			t.row(c.label, names[i], fmt.Sprint(s.cells), fmt.Sprint(s.within), fmt.Sprintf("%.1f%%", 100*s.median),
				agreeCellName(s.worst), agreeSpeedups(s.worst), agreePct(s.worst.diff()))
		}
	}
	if err := t.flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	title := "cells beyond " + fmt.Sprintf("%.0f%%", 100*tolerance)
	if all {
		title = "every cell"
	}
	fmt.Fprintf(w, "%s (Δ: serbench's speed-up over the plain loop's, minus 1):\n\n", title)
	t = newAgreeTable(w, markdown)
	t.header("condition", "cell", "serbench vs plain loop", "Δ")
	for _, c := range conds {
		for _, x := range c.cells {
			if all || math.Abs(x.diff()) > tolerance {
				t.row(c.label, agreeCellName(x), agreeSpeedups(x), agreePct(x.diff()))
			}
		}
	}
	return t.flush()
}
