package export

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/stats"
)

// The agreement of serbench's speed-ups with those of the exported module's
// plain go test loops (serbench agree): both sides are read as result
// documents, paired cell by cell, and summarized per GC condition and
// codec.

// DefaultAgreeTolerance is the band within which a serbench speed-up agrees
// with the plain loop's: 15%, as in the agreement target of the docs
// (docs/agreement.md).
const DefaultAgreeTolerance = 0.15

// AgreeCondition is the cells of one pair of files: a serbench run and
// the exported loops' output, taken under the same GC condition (Label).
type AgreeCondition struct {
	Label string
	Cells []AgreeCell
}

// AgreeCell is one (codec, scenario, op) timed on both sides.
type AgreeCell struct {
	Codec, Scenario, Op string
	// Serbench and Export are the speed-ups over the baseline (ratios, >0).
	Serbench, Export float64
}

// Diff is serbench's speed-up over the plain loop's, minus 1: +0.53 when
// serbench's is 53% higher.
func (c AgreeCell) Diff() float64 { return c.Serbench/c.Export - 1 }

// ConditionLabel names a pair by the live heap of the serbench run
// (e.LiveHeap, env.live_heap in JSON), or by its file name without the extension when the run
// does not record one (benchfmt): scripts/agree.sh names its files
// serbench-<live heap>.txt.
func ConditionLabel(e env.Env, path string) string {
	if lh := e.LiveHeap; lh != nil {
		if lh.TargetBytes == 0 {
			return "live-heap=0"
		}
		return "live-heap=" + scenario.SizeLabel(lh.TargetBytes)
	}
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// AgreeFiles reads pairs of files, each a serbench run (JSON or benchfmt,
// results.ReadFile) followed by the go test -bench output of the exported
// module taken under the same GC condition, and returns one
// AgreeCondition per pair, labelled by ConditionLabel. An odd number of
// files, a file that cannot be read and a pair with no cell with a
// speed-up in common (AgreeCells) are errors.
func AgreeFiles(paths []string) ([]AgreeCondition, error) {
	if len(paths)%2 != 0 {
		return nil, fmt.Errorf("export: want pairs of files SERBENCH EXPORT (got %d files)", len(paths))
	}
	var conds []AgreeCondition
	for i := 0; i < len(paths); i += 2 {
		sb, err := results.ReadFile(paths[i])
		if err != nil {
			return nil, err
		}
		ex, err := results.ReadFile(paths[i+1])
		if err != nil {
			return nil, err
		}
		c := AgreeCondition{Label: ConditionLabel(sb.Env, paths[i]), Cells: AgreeCells(sb.Results, ex.Results)}
		if len(c.Cells) == 0 {
			return nil, fmt.Errorf("agree: %s and %s have no cell with a speed-up in common", paths[i], paths[i+1])
		}
		conds = append(conds, c)
	}
	return conds, nil
}

// AgreeCells pairs the cells with a speed-up (the baseline's own excluded)
// that both sides timed, in serbench's order.
func AgreeCells(sb, ex []results.Row) []AgreeCell {
	key := func(r results.Row) string { return r.Codec + "\x00" + r.Scenario + "\x00" + r.Op }
	byKey := map[string]results.Row{}
	for _, r := range ex {
		byKey[key(r)] = r
	}
	var out []AgreeCell
	for _, r := range sb {
		x, ok := byKey[key(r)]
		if !ok || r.Codec == results.DefaultBaseline || r.Speedup <= 0 || x.Speedup <= 0 {
			continue
		}
		out = append(out, AgreeCell{Codec: r.Codec, Scenario: r.Scenario, Op: r.Op, Serbench: r.Speedup, Export: x.Speedup})
	}
	return out
}

// agreeSummary is the agreement of a group of cells.
type agreeSummary struct {
	cells, within int
	median        float64 // median of |diff|
	worst         AgreeCell
}

func summarizeAgreement(cells []AgreeCell, tolerance float64) agreeSummary {
	diffs := make([]float64, len(cells))
	for i, c := range cells {
		diffs[i] = c.Diff()
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
func agreeCellName(c AgreeCell) string     { return c.Codec + " " + c.Scenario + " " + c.Op }
func agreeSpeedups(c AgreeCell) string     { return fmt.Sprintf("%.2fx vs %.2fx", c.Serbench, c.Export) }
func agreeWithin(tolerance float64) string { return fmt.Sprintf("within %.0f%%", 100*tolerance) }

// byCodec returns the codecs of cells in their first order, and each
// one's cells.
func byCodec(cells []AgreeCell) ([]string, map[string][]AgreeCell) {
	var codecs []string
	groups := map[string][]AgreeCell{}
	for _, x := range cells {
		if _, ok := groups[x.Codec]; !ok {
			codecs = append(codecs, x.Codec)
		}
		groups[x.Codec] = append(groups[x.Codec], x)
	}
	return codecs, groups
}

// WriteAgreementByCodec writes one row per codec (and one for all cells),
// with each condition's cells within the tolerance, median absolute Δ and
// worst Δ side by side.
func WriteAgreementByCodec(w io.Writer, conds []AgreeCondition, tolerance float64, markdown bool) error {
	t := newAgreeTable(w, markdown)
	cols := []string{"codec"}
	var codecs []string
	groups := make([]map[string][]AgreeCell, len(conds)) // per condition, by codec
	for i, c := range conds {
		cols = append(cols, c.Label+" "+agreeWithin(tolerance), c.Label+" median abs Δ", c.Label+" worst Δ")
		var cs []string
		cs, groups[i] = byCodec(c.Cells)
		groups[i]["all"] = c.Cells
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
			where := s.worst.Scenario + " " + s.worst.Op
			if id == "all" {
				where = agreeCellName(s.worst)
			}
			row = append(row, fmt.Sprintf("%d of %d", s.within, s.cells), fmt.Sprintf("%.1f%%", 100*s.median),
				agreePct(s.worst.Diff())+" ("+where+")")
		}
		t.row(row...)
	}
	return t.flush()
}

// WriteAgreement writes, per condition, the summary of all cells and of
// each codec, then the cells beyond the tolerance (all cells with all).
func WriteAgreement(w io.Writer, conds []AgreeCondition, tolerance float64, markdown, all bool) error {
	t := newAgreeTable(w, markdown)
	t.header("condition", "codec", "cells", agreeWithin(tolerance), "median abs Δ", "worst cell", "serbench vs plain loop", "Δ")
	for _, c := range conds {
		groups := [][]AgreeCell{c.Cells}
		names := []string{"all"}
		codecs, byID := byCodec(c.Cells)
		for _, id := range codecs {
			groups, names = append(groups, byID[id]), append(names, id)
		}
		for i, g := range groups {
			s := summarizeAgreement(g, tolerance)
			t.row(c.Label, names[i], fmt.Sprint(s.cells), fmt.Sprint(s.within), fmt.Sprintf("%.1f%%", 100*s.median),
				agreeCellName(s.worst), agreeSpeedups(s.worst), agreePct(s.worst.Diff()))
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
		for _, x := range c.Cells {
			if all || math.Abs(x.Diff()) > tolerance {
				t.row(c.Label, agreeCellName(x), agreeSpeedups(x), agreePct(x.Diff()))
			}
		}
	}
	return t.flush()
}
