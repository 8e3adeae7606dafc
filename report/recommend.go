package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/results"
)

// summaryGrid lays out the geomeans as a grid: one row per codec, one
// column per op.
func summaryGrid(doc *results.Run) (grid, bool) {
	gs := doc.Geomeans
	if len(gs) == 0 {
		return grid{}, false
	}
	var ops []string
	seenOp := map[string]bool{}
	cells := map[[2]string]results.Geomean{}
	var codecs []string
	seenCodec := map[string]bool{}
	for _, g := range gs {
		if !seenCodec[g.Codec] {
			seenCodec[g.Codec] = true
			codecs = append(codecs, g.Codec)
		}
		if !seenOp[g.Op] {
			seenOp[g.Op] = true
			ops = append(ops, g.Op)
		}
		cells[[2]string{g.Codec, g.Op}] = g
	}
	opRank := map[string]int{results.OpMarshal: 0, results.OpUnmarshal: 1, results.OpConvert: 2, results.OpParse: 3}
	sort.SliceStable(ops, func(i, j int) bool { return opRank[ops[i]] < opRank[ops[j]] })
	g := grid{title: fmt.Sprintf("geomean speed-up over %s, across scenarios", doc.Baseline), Table: document.Table{Header: []string{"codec"}, Numeric: []bool{false}}}
	for _, op := range ops {
		g.Header = append(g.Header, op, "n")
		g.Numeric = append(g.Numeric, true, true)
	}
	for _, c := range codecs {
		row := []string{c}
		for _, op := range ops {
			x, ok := cells[[2]string{c, op}]
			if !ok {
				row = append(row, "", "")
				continue
			}
			s := fmt.Sprintf("%.2fx", x.Speedup)
			if x.SpeedupLo > 0 {
				s += fmt.Sprintf(" ±%.0f%%", 100*max(x.SpeedupHi/x.Speedup-1, 1-x.SpeedupLo/x.Speedup))
			}
			row = append(row, s, fmt.Sprint(x.Cells))
		}
		g.Rows = append(g.Rows, row)
	}
	return g, true
}

// writeSummaryTable writes the recommendations and the geomean grid in
// the table format.
func writeSummaryTable(ew *document.ErrWriter, doc *results.Run) {
	recs := doc.Recommendations
	if len(recs) > 0 {
		fmt.Fprintf(ew, "\nrecommendation (Pareto front of marshal + unmarshal time, with convert for codecs on generated types, and size, exact round trips only; wire, hand-written for serbench's types, and zero-copy readers left out)\n")
		for _, r := range recs {
			fmt.Fprintf(ew, "%s: %s\n  front: %s\n", r.Scenario, r.Text, frontText(r.Front))
		}
	}
	if g, ok := summaryGrid(doc); ok {
		fmt.Fprintf(ew, "\n%s\n", g.title)
		for _, line := range g.Aligned() {
			fmt.Fprintln(ew, line)
		}
	}
}

// writeSummaryMarkdown is writeSummaryTable in Markdown.
func writeSummaryMarkdown(ew *document.ErrWriter, doc *results.Run) {
	recs := doc.Recommendations
	if len(recs) > 0 {
		fmt.Fprintf(ew, "### Recommendation\n\nPareto front of marshal + unmarshal time, with convert for codecs on generated types, and size, exact round trips only; wire, hand-written for serbench's own types, and zero-copy readers are left out.\n\n")
		for _, r := range recs {
			fmt.Fprintf(ew, "- **%s**: %s Front: %s.\n", document.MarkdownCell(r.Scenario), document.MarkdownCell(r.Text), document.MarkdownCell(frontText(r.Front)))
		}
		fmt.Fprintln(ew)
	}
	if g, ok := summaryGrid(doc); ok {
		fmt.Fprintf(ew, "### %s\n\n", g.title)
		writeMarkdownGrid(ew, g)
		fmt.Fprintln(ew)
	}
}

// frontText lists a Pareto front as "wire (412 ns, 46 B), ...".
func frontText(front []results.Choice) string {
	if len(front) == 0 {
		return "none"
	}
	parts := make([]string, len(front))
	for i, c := range front {
		with := ""
		if c.ConvertNsPerOp > 0 {
			with = " with convert"
		}
		parts[i] = fmt.Sprintf("%s (%s%s, %d B)", c.Codec, document.Ns(c.NsPerOp), with, c.SizeBytes)
	}
	return strings.Join(parts, ", ")
}
