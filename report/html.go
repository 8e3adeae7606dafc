package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"image/color"
	"io"
	"regexp"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
)

// HTML writes doc as one self-contained HTML page that opens offline: no
// script, style sheet, font or image is fetched from anywhere. Per scenario
// it shows a chart of ns/op (marshal and unmarshal side by side, the median
// with its 95% confidence interval as error bars), charts of the encoded
// size and of allocs/op, and the same table as the table format, sortable
// by clicking a column header (a few lines of inline JavaScript). With a
// size sweep (scenarios with ScenarioInfo.Sweep), a section with log-log
// charts of ns/op and MB/s against the encoding/json size per codec and op,
// one sentence per codec and op on its throughput plateau (Plateaus) and
// the MB/s grid. When calc is not nil, a capacity calculator
// (package plan's model over this run's figures: rate, fan-out, cores,
// budgets and prices as inputs, the ranking recomputed as they change). Then the fidelity findings and n/a reasons, and the
// environment.
//
// Charts are drawn with gonum.org/v1/plot into inline SVG (vgsvg backend,
// XML prolog stripped). The SVG names the font family "Liberation Sans"
// without embedding it; the page's style sheet falls back to Arial,
// Helvetica and sans-serif, which have the same metrics, so no font file is
// referenced or needed. Codecs whose cell did not round-trip are drawn with
// a "✗" after their name; n/a and untimed cells are left out of the charts.
// The output is deterministic for a given doc.
func HTML(w io.Writer, doc *results.Run, calc *document.Calculator) error {
	page, err := buildPage(doc, calc)
	if err != nil {
		return err
	}
	return htmlPage.Execute(w, page)
}

type htmlScenario struct {
	ID, Title, Doc, Anchor string
	NsChart                template.HTML
	SizeChart, AllocChart  template.HTML
	Header                 []string
	RightAlign             []bool
	Rows                   [][]string
	Notes                  []string
	Source                 []string
}

type htmlFinding struct{ Codec, Scenario, Op, Kind, Text string }

type htmlPageData struct {
	Env       env.Env
	Doc       *results.Run
	Scenarios []htmlScenario
	Findings  []htmlFinding
	Legend    []string
	// Noise and Target describe the sampling (see sampling.go).
	Noise, Target string
	Recs          []htmlRec
	Summary       *htmlSummary
	Sweep         *htmlSweep
	// Compressors states the levels of -compress (compressorsLine).
	Compressors string
	// Plan is the capacity calculator's data (HTML's calc).
	Plan *document.Calculator
}

type htmlRec struct {
	results.Recommendation
	FrontText string
}

type htmlSummary struct {
	Title      string
	Header     []string
	RightAlign []bool
	Rows       [][]string
}

func buildPage(doc *results.Run, calc *document.Calculator) (*htmlPageData, error) {
	p := &htmlPageData{Env: doc.Env, Doc: doc}
	p.Legend = strings.Split(strings.TrimRight(legend(doc), "\n"), "\n")
	p.Noise, p.Target = noiseLine(doc.Env.Noise), pct(doc.Target)
	p.Compressors = compressorsLine(doc)
	for _, r := range doc.Recommendations {
		p.Recs = append(p.Recs, htmlRec{r, frontText(r.Front)})
	}
	if g, ok := summaryGrid(doc); ok {
		p.Summary = &htmlSummary{g.title, g.Header, g.Numeric, g.Rows}
	}
	var err error
	if p.Sweep, err = buildSweep(doc); err != nil {
		return nil, err
	}
	p.Plan = calc
	order, groups := results.ByScenario(doc.Results)
	gs := grids(doc)
	docs := map[string]string{}
	for _, s := range doc.Scenarios {
		docs[s.ID] = s.Doc
	}
	for i, id := range order {
		g := gs[i]
		s := htmlScenario{ID: id, Title: g.title, Doc: docs[id], Anchor: fmt.Sprintf("s%d", i+1),
			Header: g.Header, RightAlign: g.Numeric, Rows: g.Rows, Notes: g.notes, Source: g.source}
		var err error
		if s.NsChart, err = nsChart(groups[id]); err != nil {
			return nil, fmt.Errorf("report: chart of %s: %w", id, err)
		}
		if s.SizeChart, err = sizeChart(groups[id]); err != nil {
			return nil, fmt.Errorf("report: chart of %s: %w", id, err)
		}
		if s.AllocChart, err = allocChart(groups[id]); err != nil {
			return nil, fmt.Errorf("report: chart of %s: %w", id, err)
		}
		p.Scenarios = append(p.Scenarios, s)
	}
	for _, r := range doc.Results {
		switch r.Outcome() {
		case codec.NA:
			p.Findings = append(p.Findings, htmlFinding{r.Codec, r.Scenario, r.Op, "n/a", r.Error})
		case codec.Failed:
			p.Findings = append(p.Findings, htmlFinding{r.Codec, r.Scenario, r.Op, "✗ not timed", r.Error})
		case codec.Changed:
			p.Findings = append(p.Findings, htmlFinding{r.Codec, r.Scenario, r.Op, "✗ timed, not exact", r.Error})
		}
	}
	return p, nil
}

// Chart colours and sizes.
var (
	colMarshal   = color.RGBA{R: 0x2b, G: 0x6c, B: 0xb0, A: 0xff}
	colUnmarshal = color.RGBA{R: 0xe0, G: 0x7b, B: 0x1f, A: 0xff}
	colSize      = color.RGBA{R: 0x4a, G: 0x9a, B: 0x5b, A: 0xff}
	colErr       = color.RGBA{A: 0xff}
	chartFont    = font.Font{Typeface: "Liberation", Variant: "Sans"}
)

const (
	wideChart = 11 * vg.Inch // drawn about 1.5 times larger in a 1200 px page
	halfChart = 5.5 * vg.Inch
	rowHeight = 24 * vg.Inch / 72 // one codec's band
	barWidth  = 9 * vg.Inch / 72
	barOffset = 0.2 // marshal and unmarshal bars sit at i∓barOffset
)

// series is one codec's row in a chart.
type series struct {
	label string
	vals  []float64 // one per bar kind
	lo    []float64
	hi    []float64
}

// chartRows collects, per codec in run order, the value of each op in ops
// as got gives it; codecs with no timed cell are left out.
func chartRows(rs []results.Row, ops []string, got func(results.Row) (v, lo, hi float64)) []series {
	var order []string
	byCodec := map[string]map[string]results.Row{}
	for _, r := range rs {
		if !r.Timed() {
			continue
		}
		if _, ok := byCodec[r.Codec]; !ok {
			order = append(order, r.Codec)
			byCodec[r.Codec] = map[string]results.Row{}
		}
		byCodec[r.Codec][r.Op] = r
	}
	var out []series
	for _, c := range order {
		s := series{label: c}
		bad := false
		for _, op := range ops {
			r, ok := byCodec[c][op]
			var v, lo, hi float64
			if ok {
				v, lo, hi = got(r)
				bad = bad || !r.OK
			}
			s.vals, s.lo, s.hi = append(s.vals, v), append(s.lo, lo), append(s.hi, hi)
		}
		if bad {
			s.label += " ✗"
		}
		out = append(out, s)
	}
	return out
}

func integer(x float64) string { return strconv.FormatFloat(x, 'f', 0, 64) }

func nsChart(rs []results.Row) (template.HTML, error) {
	rows := chartRows(rs, []string{results.OpMarshal, results.OpUnmarshal}, func(r results.Row) (float64, float64, float64) {
		return r.NsPerOp, r.NsPerOpLo, r.NsPerOpHi
	})
	return barChart(rows, "ns/op (median; error bar: 95% confidence interval)", []color.Color{colMarshal, colUnmarshal}, wideChart, true, document.Num)
}

func sizeChart(rs []results.Row) (template.HTML, error) {
	var marshal []results.Row
	for _, r := range rs {
		if r.Op == results.OpMarshal {
			marshal = append(marshal, r)
		}
	}
	rows := chartRows(marshal, []string{results.OpMarshal}, func(r results.Row) (float64, float64, float64) {
		return float64(r.SizeBytes), 0, 0
	})
	return barChart(rows, "encoded size (bytes)", []color.Color{colSize}, halfChart, false, integer)
}

func allocChart(rs []results.Row) (template.HTML, error) {
	rows := chartRows(rs, []string{results.OpMarshal, results.OpUnmarshal}, func(r results.Row) (float64, float64, float64) {
		return float64(r.AllocsPerOp), 0, 0
	})
	return barChart(rows, "allocs/op", []color.Color{colMarshal, colUnmarshal}, halfChart, false, integer)
}

// barChart draws one horizontal bar per series value, codecs top to bottom
// in run order, with value labels and, when errBars, the lo..hi interval.
func barChart(rows []series, xlabel string, colors []color.Color, width vg.Length, errBars bool, format func(float64) string) (template.HTML, error) {
	if len(rows) == 0 {
		return "", nil
	}
	p := plot.New()
	for _, ts := range []*draw.TextStyle{&p.X.Label.TextStyle, &p.Y.Label.TextStyle, &p.X.Tick.Label, &p.Y.Tick.Label, &p.Title.TextStyle} {
		ts.Font = font.From(chartFont, ts.Font.Size)
	}
	p.X.Label.Text = xlabel
	p.X.Min = 0
	p.X.Tick.Marker = plot.TickerFunc(func(min, max float64) []plot.Tick {
		ticks := plot.DefaultTicks{}.Ticks(min, max)
		for i := range ticks {
			if ticks[i].Label != "" {
				ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'g', -1, 64)
			}
		}
		return ticks
	})
	n := len(rows)
	names := make([]string, n)
	for i, s := range rows {
		names[n-1-i] = s.label
	}
	p.NominalY(names...)
	p.Y.Tick.Label.Font.Size = 10
	kinds := len(colors)
	labels := plotter.XYLabels{}
	for k := range kinds {
		vals := make(plotter.Values, n)
		var xys plotter.XYs
		var errs plotter.XErrors
		for i, s := range rows {
			vals[n-1-i] = s.vals[k]
		}
		off := 0.0
		if kinds == 2 {
			off = []float64{barOffset, -barOffset}[k]
		}
		bars, err := plotter.NewBarChart(vals, barWidth)
		if err != nil {
			return "", err
		}
		bars.Horizontal = true
		bars.XMin = off
		bars.Color = colors[k]
		bars.LineStyle.Width = 0
		p.Add(bars)
		for i, s := range rows {
			y := float64(n-1-i) + off
			v := s.vals[k]
			if v <= 0 && s.hi[k] <= 0 {
				continue
			}
			if errBars && s.lo[k] > 0 && s.hi[k] > 0 {
				xys = append(xys, plotter.XY{X: v, Y: y})
				errs = append(errs, struct{ Low, High float64 }{v - s.lo[k], s.hi[k] - v})
			}
			end := v
			if errBars && s.hi[k] > v {
				end = s.hi[k]
			}
			labels.XYs = append(labels.XYs, plotter.XY{X: end, Y: y})
			labels.Labels = append(labels.Labels, format(v))
		}
		if len(xys) > 0 {
			eb, err := plotter.NewXErrorBars(struct {
				plotter.XYs
				plotter.XErrors
			}{xys, errs})
			if err != nil {
				return "", err
			}
			eb.Color = colErr
			eb.CapWidth = barWidth * 0.8
			p.Add(eb)
		}
	}
	if len(labels.XYs) > 0 {
		lp, err := plotter.NewLabels(labels)
		if err != nil {
			return "", err
		}
		for i := range lp.TextStyle {
			lp.TextStyle[i].Font = font.From(chartFont, 8)
			lp.TextStyle[i].XAlign = draw.XLeft
			lp.TextStyle[i].YAlign = draw.YCenter
		}
		lp.Offset = vg.Point{X: 3}
		p.Add(lp)
		// Leave room on the right for the label of the longest bar.
		_, xmax, _, _ := lp.DataRange()
		p.X.Max = xmax * 1.15
	}
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	height := rowHeight*vg.Length(n) + 60
	c := vgsvg.New(width, height)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", err
	}
	return template.HTML(inlineSVG(buf.String())), nil
}

var (
	svgProlog = regexp.MustCompile(`^(?s)<\?xml[^>]*\?>\s*(<!--.*?-->\s*)?`)
	svgXMLNS  = regexp.MustCompile(`\s+xmlns(:xlink)?="[^"]*"`)
)

// inlineSVG prepares a standalone SVG document for inclusion in HTML: the
// XML prolog and comment go, and so do the namespace declarations (HTML
// parsers put <svg> in the SVG namespace themselves), so that the page
// holds no URL at all.
func inlineSVG(s string) string {
	s = svgProlog.ReplaceAllString(s, "")
	s = svgXMLNS.ReplaceAllString(s, "")
	return strings.TrimSpace(s)
}

//go:embed html.tmpl
var htmlTemplate string

var htmlPage = template.Must(template.New("page").Funcs(template.FuncMap{
	"align": func(right []bool, i int) string {
		if i < len(right) && right[i] {
			return "num"
		}
		return ""
	},
	"inc":   func(i int) int { return i + 1 },
	"style": document.PageStyle,
}).Parse(htmlTemplate + document.EnvTemplate()))
