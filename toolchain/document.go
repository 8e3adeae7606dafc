package toolchain

import (
	"fmt"
	"io"
	"sort"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/stats"
)

// Schema names the document of serbench run -go.
const Schema = document.Toolchains

// Formats are the output formats of serbench run -go.
var Formats = formats.Names()

// Document compares the same cells measured by several builds
// of serbench (Go toolchains, GOEXPERIMENT settings), their samples
// interleaved (Measure). Field names in JSON follow the
// serbench-toolchains/v1 contract of docs/reference.md.
type Document struct {
	Schema string `json:"schema"`
	// Env is the driver's environment (the binary that built the others).
	Env env.Env `json:"env"`
	// Baseline is the codec every speed-up is over, within each build.
	Baseline string `json:"baseline"`
	// Alpha is the significance level of the ratios' U-test.
	Alpha      float64 `json:"alpha"`
	Toolchains []Info  `json:"toolchains"`
	// Base is the build every ratio is over: the first one that ran.
	Base string `json:"base"`
	// Rows holds one row per (scenario, codec, op) measured by any build,
	// in the first build's order, then the cells only later builds have.
	Rows []Row `json:"rows"`
}

// Info is one build: its name as -go spells it, the environment
// its worker recorded, and why it did not run or what it lacks.
type Info struct {
	Name     string            `json:"name"`
	Env      *env.Env          `json:"env,omitempty"`
	Error    string            `json:"error,omitempty"`
	Warnings []string          `json:"warnings,omitempty"`
	Absent   map[string]string `json:"absent,omitempty"`
}

// Row is one cell across the builds.
type Row struct {
	Scenario string `json:"scenario"`
	Codec    string `json:"codec"`
	Op       string `json:"op"`
	// Cells holds one entry per build, in Toolchains order.
	Cells []Cell `json:"cells"`
	// Ratios compare each later build with the first build that ran
	// (Document.Base), where both timed the cell.
	Ratios []Ratio `json:"ratios,omitempty"`
}

// Cell is one build's figures for a cell. Missing says why the
// build has no such cell (the codec is absent from it, the build failed).
type Cell struct {
	Toolchain   string  `json:"toolchain"`
	NsPerOp     float64 `json:"ns_per_op,omitempty"`
	NsPerOpLo   float64 `json:"ns_per_op_lo,omitempty"`
	NsPerOpHi   float64 `json:"ns_per_op_hi,omitempty"`
	BytesPerOp  int64   `json:"bytes_per_op,omitempty"`
	AllocsPerOp int64   `json:"allocs_per_op,omitempty"`
	// Speedup is the build's own Baseline over this cell (ratio, with its
	// 95% interval), as in serbench/v1 results.
	Speedup   float64   `json:"speedup,omitempty"`
	SpeedupLo float64   `json:"speedup_lo,omitempty"`
	SpeedupHi float64   `json:"speedup_hi,omitempty"`
	OK        bool      `json:"ok"`
	Error     string    `json:"error,omitempty"`
	Missing   string    `json:"missing,omitempty"`
	Samples   []float64 `json:"samples,omitempty"`
}

// Ratio is a later build's median ns/op over the first build's,
// with its 95% interval and the Mann-Whitney U-test's p (stats.CompareSamples):
// below 1 the later build is faster.
type Ratio struct {
	Toolchain   string  `json:"toolchain"`
	Base        string  `json:"base"`
	Ratio       float64 `json:"ratio"`
	Lo          float64 `json:"lo"`
	Hi          float64 `json:"hi"`
	P           float64 `json:"p"`
	Significant bool    `json:"significant"`
}

// NewDocument builds the comparison of runs (from Measure). e is the
// driver's environment; alpha the U-test's level (compare.DefaultAlpha
// when 0).
func NewDocument(e env.Env, baseline string, alpha float64, runs []Run) *Document {
	if alpha == 0 {
		alpha = compare.DefaultAlpha
	}
	doc := &Document{Schema: Schema, Env: e, Baseline: baseline, Alpha: alpha}
	type key struct{ scenario, codec, op string }
	var order []key
	index := map[key]map[int]results.Row{}
	for i, r := range runs {
		info := Info{Name: r.Spec.String(), Warnings: r.Warnings, Absent: r.Absent}
		if r.Err != nil {
			info.Error = r.Err.Error()
		}
		if r.Env.Go != "" {
			e := r.Env
			info.Env = &e
		}
		doc.Toolchains = append(doc.Toolchains, info)
		for _, res := range r.Results {
			k := key{res.Scenario, res.Codec, res.Op}
			if index[k] == nil {
				index[k] = map[int]results.Row{}
				order = append(order, k)
			}
			index[k][i] = res
		}
	}
	// Cells of later builds only go after their scenario's cells.
	scenarioAt := map[string]int{}
	for _, k := range order {
		if _, ok := scenarioAt[k.scenario]; !ok {
			scenarioAt[k.scenario] = len(scenarioAt)
		}
	}
	baseAt := 0
	for i, r := range runs {
		if r.Err == nil {
			baseAt = i
			break
		}
	}
	doc.Base = runs[baseAt].Spec.String()
	sort.SliceStable(order, func(a, b int) bool { return scenarioAt[order[a].scenario] < scenarioAt[order[b].scenario] })
	for _, k := range order {
		row := Row{Scenario: k.scenario, Codec: k.codec, Op: k.op}
		for i, r := range runs {
			c := Cell{Toolchain: r.Spec.String()}
			if res, ok := index[k][i]; ok {
				c.NsPerOp, c.NsPerOpLo, c.NsPerOpHi = res.NsPerOp, res.NsPerOpLo, res.NsPerOpHi
				c.BytesPerOp, c.AllocsPerOp = res.BytesPerOp, res.AllocsPerOp
				c.Speedup, c.SpeedupLo, c.SpeedupHi = res.Speedup, res.SpeedupLo, res.SpeedupHi
				c.OK, c.Error, c.Samples = res.OK, res.Error, res.Samples
			} else {
				c.Missing = missing(r, k.codec)
			}
			row.Cells = append(row.Cells, c)
		}
		base := row.Cells[baseAt]
		for _, c := range row.Cells[baseAt+1:] {
			if len(base.Samples) == 0 || len(c.Samples) == 0 {
				continue
			}
			cmp := stats.CompareSamples(c.Samples, base.Samples)
			row.Ratios = append(row.Ratios, Ratio{Toolchain: c.Toolchain, Base: base.Toolchain,
				Ratio: cmp.Value, Lo: cmp.Lo, Hi: cmp.Hi, P: cmp.P, Significant: cmp.P <= alpha})
		}
		doc.Rows = append(doc.Rows, row)
	}
	return doc
}

// missing says why run has no result for codec.
func missing(r Run, codec string) string {
	switch why, ok := r.Absent[codec]; {
	case r.Err != nil:
		return "the toolchain did not run"
	case ok:
		return why
	}
	return "not measured by this build"
}

// Write writes doc as format: table, markdown or json. An unknown format
// is a *document.UnknownFormatError that lists the valid ones.
func Write(w io.Writer, format string, doc *Document) error {
	return formats.Write(w, format, doc)
}

// formats are the formats of a toolchain comparison.
var formats = document.Formats[*Document]{Package: "toolchain", List: []document.Format[*Document]{
	{Name: "table", Write: func(w io.Writer, doc *Document) error {
		return document.WriteTerminal(w, func(w io.Writer) error { return writeText(w, doc, false) })
	}},
	{Name: "markdown", Write: func(w io.Writer, doc *Document) error {
		return document.WriteTerminal(w, func(w io.Writer) error { return writeText(w, doc, true) })
	}},
	{Name: "json", Write: func(w io.Writer, doc *Document) error { return document.WriteJSON(w, "toolchain", "  ", doc) }},
}}

// table is one scenario's table of the text formats.
type table struct {
	title string
	document.Table
}

func writeText(w io.Writer, doc *Document, md bool) error {
	ew := document.NewErrWriter(w)
	var ran []int
	for i, t := range doc.Toolchains {
		if t.Error == "" {
			ran = append(ran, i)
		}
	}
	first := doc.Base
	var tables []table
	for _, row := range doc.Rows {
		if len(tables) == 0 || tables[len(tables)-1].title != row.Scenario {
			g := table{title: row.Scenario, Table: document.Table{Header: []string{"codec", "op"}, Numeric: []bool{false, false}}}
			for _, i := range ran {
				n := doc.Toolchains[i].Name
				g.Header = append(g.Header, n+" ns/op", "×"+doc.Baseline)
				g.Numeric = append(g.Numeric, true, true)
			}
			for _, i := range ran {
				if i != ran[0] {
					g.Header = append(g.Header, doc.Toolchains[i].Name+" / "+first)
					g.Numeric = append(g.Numeric, true)
				}
			}
			tables = append(tables, g)
		}
		g := &tables[len(tables)-1]
		cells := []string{row.Codec, row.Op}
		for _, i := range ran {
			c := row.Cells[i]
			switch {
			case c.Missing != "":
				cells = append(cells, "—", "")
			case !c.OK:
				cells = append(cells, "✗", "")
			default:
				cells = append(cells, document.NsInterval(c.NsPerOp, c.NsPerOpLo, c.NsPerOpHi), speedupText(c))
			}
		}
		for _, i := range ran {
			if i == ran[0] {
				continue
			}
			cells = append(cells, ratioText(row.Ratios, doc.Toolchains[i].Name, row.Cells[ran[0]], row.Cells[i]))
		}
		g.Rows = append(g.Rows, cells)
	}
	for _, g := range tables {
		fmt.Fprintln(ew)
		if md {
			fmt.Fprintf(ew, "### %s\n\n", document.MarkdownCell(g.title))
			_ = g.WriteMarkdown(ew) // the error is ew's too
			continue
		}
		fmt.Fprintln(ew, g.title)
		for _, l := range g.Aligned() {
			fmt.Fprintln(ew, l)
		}
	}
	fmt.Fprintln(ew)
	lines := []string{
		"ns/op: median ± half-width of its 95% confidence interval; ×" + doc.Baseline + ": speed-up over that build's own " + doc.Baseline + ".",
		fmt.Sprintf("B / %s: B's median ns/op over %s's, [95%% interval]; below 1 B is faster; ~ = not significant (Mann-Whitney U, p > %v). Samples interleaved across the builds.", first, first, doc.Alpha),
		"—: the build has no such cell (why below); ✗: did not round-trip exactly or was not timed.",
	}
	for _, t := range doc.Toolchains {
		switch {
		case t.Error != "":
			lines = append(lines, t.Name+": did not run: "+t.Error)
		case t.Env != nil:
			lines = append(lines, t.Name+": "+t.Env.Line())
		}
		ids := make([]string, 0, len(t.Absent))
		for id := range t.Absent {
			if hasCodec(doc, id) {
				ids = append(ids, id)
			}
		}
		sort.Strings(ids)
		for _, id := range ids {
			lines = append(lines, fmt.Sprintf("%s: no %s: %s", t.Name, id, t.Absent[id]))
		}
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

// hasCodec reports whether any row of doc is of codec id.
func hasCodec(doc *Document, id string) bool {
	for _, r := range doc.Rows {
		if r.Codec == id {
			return true
		}
	}
	return false
}

// speedupText prints a cell's speed-up over its build's baseline.
func speedupText(c Cell) string {
	if c.Speedup == 0 {
		return ""
	}
	return fmt.Sprintf("%.2fx", c.Speedup)
}

// ratioText prints the ratio of build name's cell to the first build's:
// "0.86 [0.82, 0.90]", "~1.01 [0.97, 1.05]", or why there is none.
func ratioText(ratios []Ratio, name string, base, c Cell) string {
	for _, r := range ratios {
		if r.Toolchain != name {
			continue
		}
		mark := ""
		if !r.Significant {
			mark = "~"
		}
		if r.Lo == 0 && r.Hi == 0 {
			return fmt.Sprintf("%s%.2f", mark, r.Ratio)
		}
		return fmt.Sprintf("%s%.2f [%.2f, %.2f]", mark, r.Ratio, r.Lo, r.Hi)
	}
	switch {
	case base.Missing != "" && c.Missing == "":
		return "not in " + base.Toolchain
	case c.Missing != "" && base.Missing == "":
		return "not in " + name
	}
	return ""
}
