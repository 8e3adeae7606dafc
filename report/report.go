// Package report renders a run (results.Run): one writer per format, the
// JSON and benchmark formats being package results's own. Writers never
// print on their own; they write to the io.Writer they are given and
// return its errors. They compute nothing either: results.NewRun and
// results.Read derive what the rows imply once, and the writers show it.
//
// Every table goes through document.Table, and the HTML pages share
// document.PageStyle and document.EnvTemplate. The other documents are
// written beside their producers (package probe's fidelity matrix,
// package toolchain's comparison of builds, package plan's calculator
// data, plan.NewCalculator); report imports none of them, and toolchain
// uses what report shares (EnvLine, NsCell); the calculator's data is
// document.Calculator.
package report

import (
	"fmt"
	"io"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/stats"
)

// page is what the run formats write: the run, and for the HTML page its
// capacity calculator (nil: none).
type page struct {
	doc  *results.Run
	calc *document.Calculator
}

// only adapts a writer of the run alone to a format of pages.
func only(write func(io.Writer, *results.Run) error) func(io.Writer, page) error {
	return func(w io.Writer, p page) error { return write(w, p.doc) }
}

// runFormats are the formats of a run document.
var runFormats = document.Formats[page]{Package: "report", List: []document.Format[page]{
	{Name: "table", Write: only(Table)},
	{Name: "markdown", Write: only(Markdown)},
	{Name: "csv", Write: only(CSV)},
	{Name: "json", Write: only(results.WriteJSON)},
	{Name: "benchfmt", Write: only(results.WriteBenchfmt)},
	{Name: "html", Write: func(w io.Writer, p page) error { return HTML(w, p.doc, p.calc) }},
	{Name: "bmf", Write: only(func(w io.Writer, doc *results.Run) error { return document.WriteBMF(w, BMFOf(doc)) })},
}}

// Formats lists the names Write accepts, in the order `-format` documents them.
var Formats = runFormats.Names()

// Write renders doc in the named format: one of Formats ("bmf" is the
// Bencher Metric Format, see BMFOf). calc is the HTML page's capacity
// calculator (plan.NewCalculator over doc); the page has none when it is
// nil, and the other formats ignore it. An unknown format is a
// *document.UnknownFormatError that lists the valid ones.
func Write(w io.Writer, format string, doc *results.Run, calc *document.Calculator) error {
	return runFormats.Write(w, format, page{doc, calc})
}

// grid is one titled table (document.Table) with footnotes: a scenario's
// table, the summary, the sweep grid.
type grid struct {
	title string
	// source holds the scenario's source-fidelity lines, shown above the
	// table.
	source []string
	document.Table
	notes document.Notes
}

var header = []string{"codec", "op", "ns/op", "MB/s", "B/op", "allocs/op", "GC/1k", "size", "speed-up", "note"}

// grids builds one grid per scenario. n/a codecs take one row; identical
// footnotes share a number.
func grids(doc *results.Run) []grid {
	types := map[string]string{}
	sources := map[string][]string{}
	for _, s := range doc.Scenarios {
		types[s.ID] = s.Type
		sources[s.ID] = sourceLines(s.Source)
	}
	order, groups := results.ByScenario(doc.Results)
	var out []grid
	for _, id := range order {
		g := grid{title: id, source: append(sources[id], streamLines(groups[id])...)}
		parallel, floor, compressed, perElem := hasParallel(groups[id]), hasFloor(groups[id]), results.HasCompressed(groups[id]), hasPerElem(groups[id])
		g.Header = append([]string(nil), header[:len(header)-1]...)
		g.Numeric = []bool{false, false, true, true, true, true, true, true, true}
		if perElem {
			g.Header, g.Numeric = append(g.Header, "B/elem"), append(g.Numeric, true)
		}
		if parallel {
			g.Header, g.Numeric = append(g.Header, "scaling"), append(g.Numeric, true)
		}
		if floor {
			g.Header, g.Numeric = append(g.Header, "×floor"), append(g.Numeric, true)
		}
		if compressed {
			g.Header, g.Numeric = append(g.Header, compressHeader...), append(g.Numeric, true, true, true)
		}
		g.Header, g.Numeric = append(g.Header, "note"), append(g.Numeric, false)
		// row takes the nine fixed cells, the optional ones (B/elem,
		// scaling, ×floor, the compression cells of r) and the note, and
		// keeps the optional cells shown.
		row := func(fixed []string, elem, scaling, floorCell string, r results.Row, note string) []string {
			out := append([]string(nil), fixed...)
			if perElem {
				out = append(out, elem)
			}
			if parallel {
				out = append(out, scaling)
			}
			if floor {
				out = append(out, floorCell)
			}
			if compressed {
				out = append(out, compressCells(r)...)
			}
			return append(out, note)
		}
		if t := types[id]; t != "" {
			g.title += " (" + t + ")"
		}
		seenNA := map[string]bool{}
		for _, r := range groups[id] {
			if r.NA {
				if seenNA[r.Codec] {
					continue
				}
				seenNA[r.Codec] = true
				g.Rows = append(g.Rows, row([]string{r.Codec, "-", "n/a", "", "", "", "", "", ""}, "", "", "", r, g.notes.Mark(r.Error)))
				continue
			}
			mark := ""
			if !r.OK {
				mark = "✗ " + g.notes.Mark(r.Error)
			}
			if r.Modes != nil {
				if mark != "" {
					mark += " "
				}
				mark += ModesMark + " " + g.notes.Mark(modesText(r.Modes))
			}
			if !r.Timed() {
				g.Rows = append(g.Rows, row([]string{r.Codec, r.Op, "-", "", "", "", "", size(r), ""}, perElemCell(r), "", "", r, mark))
				continue
			}
			g.Rows = append(g.Rows, row([]string{
				r.Codec, r.Op, NsCell(r),
				mbCell(r), fmt.Sprint(r.BytesPerOp), fmt.Sprint(r.AllocsPerOp), gcCell(r), size(r),
				speedupCell(r, doc),
			}, perElemCell(r), scalingCell(r), floorCell(r), r, mark))
		}
		out = append(out, g)
	}
	return out
}

// streamLines writes, for a message corpus, one line that says what the
// figures are per, then one line per marshal and compress cell with the
// distribution of its encoded message sizes:
//
//	message corpus: 793 messages; ns/op, B/op and size are per message; encoded sizes p50 / p99 / max, whole stream:
//	  msgpack marshal: 412 / 1907 / 2201 B, 351234 B
func streamLines(rs []results.Row) []string {
	var out []string
	for _, r := range rs {
		kind, _, _ := results.CompressOp(r.Op)
		if r.Stream == nil || (r.Op != results.OpMarshal && kind != "compress") {
			continue
		}
		st := r.Stream
		if out == nil {
			out = append(out, fmt.Sprintf("message corpus: %d messages; ns/op, B/op and size are per message; encoded sizes p50 / p99 / max, whole stream:", st.Messages))
		}
		out = append(out, fmt.Sprintf("  %s %s: %d / %d / %d B, %d B", r.Codec, r.Op, st.P50, st.P99, st.Max, st.TotalBytes))
	}
	return out
}

// sourceLines writes a source-fidelity finding as lines, one per kind:
// "source fidelity: encoding/json into any loses integer above 2^53
// rounded (25×), first ...".
func sourceLines(losses []scenario.SourceLoss) []string {
	var out []string
	for _, l := range losses {
		out = append(out, "source fidelity: encoding/json into any loses "+l.String())
	}
	return out
}

func hasParallel(rs []results.Row) bool {
	for _, r := range rs {
		if len(r.Parallel) > 0 {
			return true
		}
	}
	return false
}

func hasPerElem(rs []results.Row) bool {
	for _, r := range rs {
		if r.BytesPerElem > 0 {
			return true
		}
	}
	return false
}

// perElemCell prints the encoded bytes per element of a list workload's
// cell: "4.02"; "" where there is no size.
func perElemCell(r results.Row) string {
	if r.Op == results.OpConvert || r.BytesPerElem == 0 {
		return ""
	}
	return document.Num(r.BytesPerElem)
}

func hasFloor(rs []results.Row) bool {
	for _, r := range rs {
		if r.FloorRatio > 0 {
			return true
		}
	}
	return false
}

// floorCell prints the cell's time as a multiple of the reference row's:
// "16.4x".
func floorCell(r results.Row) string {
	if r.FloorRatio == 0 {
		return ""
	}
	return document.Num(r.FloorRatio) + "x"
}

// scalingCell prints the throughput with the most goroutines over that with
// one, and the goroutine count: "1.93x@2".
func scalingCell(r results.Row) string {
	if len(r.Parallel) == 0 {
		return ""
	}
	p := r.Parallel[len(r.Parallel)-1]
	return fmt.Sprintf("%.2fx@%d", p.Scaling, p.Goroutines)
}

// gcCell prints GC cycles per 1,000 operations.
func gcCell(r results.Row) string {
	if r.GCPer1kOps == 0 {
		return "0"
	}
	return document.Num(r.GCPer1kOps)
}

func size(r results.Row) string {
	if r.Op == results.OpConvert || r.SizeBytes == 0 {
		return ""
	}
	return fmt.Sprint(r.SizeBytes)
}

// NsCell prints r's median ns/op with the half-width of its 95% interval
// as a percentage of the median, as benchstat does: "537 ±3%", and
// MissedMark after it when the interval missed the adaptive sampling
// target (unpaired cells only).
func NsCell(r results.Row) string {
	s := document.NsInterval(r.NsPerOp, r.NsPerOpLo, r.NsPerOpHi)
	if r.TargetMissed && len(r.PairRatios) == 0 {
		s += MissedMark
	}
	return s
}

// MissedMark follows the ns/op of a cell whose interval did not reach the
// adaptive sampling target.
const MissedMark = " ◦"

// ModesMark, in the note column, marks a cell whose samples form two
// speed regimes (results.Row.Modes); its footnote gives them.
const ModesMark = "⇅"

// modesText describes two speed regimes for a footnote: "2 regimes:
// 8.27 µs fast (55%), 14.5 µs slow (1.75x)", the percentage being the fast
// cluster's share of the samples and the ratio slow over fast.
func modesText(rg *stats.Modes) string {
	return fmt.Sprintf("2 regimes: %s fast (%.0f%%), %s slow (%.2fx)", document.Ns(rg.FastNs), 100*(1-rg.SlowShare), document.Ns(rg.SlowNs), rg.Ratio)
}

// modesLegend explains ModesMark and counts the cells it marks, or ""
// when no cell has two regimes.
func modesLegend(doc *results.Run) string {
	timed, marked := 0, 0
	for _, r := range doc.Results {
		if r.Timed() {
			timed++
			if r.Modes != nil {
				marked++
			}
		}
	}
	if marked == 0 {
		return ""
	}
	s := fmt.Sprintf("%s: two speed regimes (%d of %d cells): the samples form two clusters (a busy neighbour on a shared core, or the GC); the fast one estimates the uncontended machine; the footnote gives each cluster's median ns/op, the fast one's share of the samples and slow over fast.",
		ModesMark, marked, timed)
	if doc.Paired() {
		// Measured in docs/findings/noisy.md: on a time-shared CPU, 149 of
		// 160 paired speed-ups stayed within 10% of the quiet run's.
		s += " Speed-ups are paired (each sample between two of " + doc.Baseline + "'s), so they hold across both; ns/op does not: read it from the fast cluster, or rerun on a quieter machine or CPU (-pin)."
	}
	return s + "\n"
}

func mbCell(r results.Row) string {
	if r.MBPerS == 0 {
		return ""
	}
	return document.Num(r.MBPerS)
}

// speedupCell prints "2.39x"; "~" before it when the test of
// results.Row.SpeedupP cannot tell the cell from the baseline at α=0.05
// and there were enough samples (or pairs) to try; the missed-target mark
// after it on a paired cell, whose target is its speed-up's interval.
func speedupCell(r results.Row, doc *results.Run) string {
	if r.Speedup == 0 {
		return ""
	}
	if r.Codec == doc.Baseline {
		return "base"
	}
	s := fmt.Sprintf("%.2fx", r.Speedup)
	if r.SpeedupLo > 0 && r.SpeedupHi > 0 {
		hw := max(r.SpeedupHi/r.Speedup-1, 1-r.SpeedupLo/r.Speedup)
		s += fmt.Sprintf(" ±%.0f%%", 100*hw)
	}
	enough := len(r.Samples) >= MinSamplesForSignificance
	if len(r.PairRatios) > 0 {
		enough = len(r.PairRatios) >= MinPairsForSignificance
	}
	if r.SpeedupP > 0.05 && enough {
		s = "~" + s
	}
	if r.TargetMissed && len(r.PairRatios) > 0 {
		s += MissedMark
	}
	return s
}

// MinPairsForSignificance is the fewest pairs at which the sign test of a
// paired speed-up can reach p < 0.05 (6 pairs all one way give p = 0.031;
// 5 give 0.0625).
const MinPairsForSignificance = 6

// MinSamplesForSignificance is the fewest samples per cell at which the
// Mann-Whitney U-test can reach p < 0.05 (4+4 gives p ≥ 0.029; 3+3 cannot
// go below 0.1), per golang.org/x/perf/benchmath.
const MinSamplesForSignificance = 4
