package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

// sweepGrid lays out the sweep as one row per codec and op and one column
// per size: MB/s at that size, then where the plateau starts.
func sweepGrid(doc *results.Run) (grid, bool) {
	keys, series := results.SweepSeries(doc)
	if len(keys) == 0 {
		return grid{}, false
	}
	var sizes []int64
	jsonBytes := map[int64]int64{}
	for _, s := range doc.Scenarios {
		if s.Sweep != nil {
			if _, ok := jsonBytes[s.Sweep.TargetBytes]; !ok {
				sizes = append(sizes, s.Sweep.TargetBytes)
			}
			jsonBytes[s.Sweep.TargetBytes] = s.Sweep.JSONBytes
		}
	}
	sort.Slice(sizes, func(i, j int) bool { return sizes[i] < sizes[j] })
	g := grid{title: fmt.Sprintf("size sweep (%s): MB/s by encoding/json size", scenario.SweepFamily),
		Table: document.Table{Header: []string{"codec", "op"}, Numeric: []bool{false, false}}}
	var actual []string
	for _, n := range sizes {
		g.Header = append(g.Header, scenario.SizeLabel(n))
		g.Numeric = append(g.Numeric, true)
		actual = append(actual, fmt.Sprintf("%s=%d", scenario.SizeLabel(n), jsonBytes[n]))
	}
	g.Header, g.Numeric = append(g.Header, "plateau"), append(g.Numeric, false)
	g.notes = append(g.notes, "encoding/json bytes of each point: "+strings.Join(actual, ", ")+".", plateauRule())
	plateaus := map[[2]string]results.Plateau{}
	for _, p := range doc.Plateaus {
		plateaus[[2]string{p.Codec, p.Op}] = p
	}
	for _, k := range keys {
		row := []string{k[0], k[1]}
		at := map[int64]float64{}
		for _, p := range series[k] {
			at[p.Target] = p.Row.MBPerS
		}
		for _, n := range sizes {
			cell := ""
			if x, ok := at[n]; ok {
				cell = document.Num(x)
			}
			row = append(row, cell)
		}
		p, ok := plateaus[k]
		switch {
		case !ok:
			row = append(row, "")
		case p.FromBytes > 0:
			row = append(row, "from "+scenario.SizeLabel(p.FromBytes))
		case p.Falls:
			row = append(row, "none (falls after "+scenario.SizeLabel(p.MaxAtBytes)+")")
		default:
			row = append(row, "none (still rising)")
		}
		g.Rows = append(g.Rows, row)
	}
	return g, true
}

// writeSweepTable writes the sweep grid and its notes in the table format.
func writeSweepTable(ew *document.ErrWriter, doc *results.Run) {
	g, ok := sweepGrid(doc)
	if !ok {
		return
	}
	fmt.Fprintf(ew, "\n%s\n", g.title)
	for _, line := range g.Aligned() {
		fmt.Fprintln(ew, line)
	}
	for _, n := range g.notes {
		fmt.Fprintf(ew, "  %s\n", n)
	}
}

// writeSweepMarkdown is writeSweepTable in Markdown.
func writeSweepMarkdown(ew *document.ErrWriter, doc *results.Run) {
	g, ok := sweepGrid(doc)
	if !ok {
		return
	}
	fmt.Fprintf(ew, "### %s\n\n", g.title)
	notes := g.notes
	g.notes = nil
	writeMarkdownGrid(ew, g)
	for _, n := range notes {
		fmt.Fprintf(ew, "%s  \n", n)
	}
	fmt.Fprintln(ew)
}

// plateauRule states the rule of Plateaus in a sentence.
func plateauRule() string {
	return fmt.Sprintf("Throughput plateau: the smallest sweep size from which a codec's MB/s stays within %.0f%% of its best median MB/s on the sweep, at every larger size too (a size counts when the upper end of its 95%% interval is within).", 100*results.PlateauTolerance)
}
