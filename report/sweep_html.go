package report

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

// htmlSweep is the size-sweep section of the HTML report.
type htmlSweep struct {
	NsChart, MBChart template.HTML
	Grid             htmlSummary
	Notes            []string
	Plateaus         []string
	// Key gives each codec's line colour, as CSS "#rrggbb".
	Key []htmlKey
}

type htmlKey struct {
	Codec string
	Color template.CSS
}

// sweepColors tell codecs apart in the sweep charts (the Okabe-Ito
// palette, distinguishable with the common colour-vision deficiencies),
// repeated beyond eight codecs.
var sweepColors = []color.RGBA{
	{0x00, 0x72, 0xb2, 0xff}, {0xe6, 0x9f, 0x00, 0xff}, {0x00, 0x9e, 0x73, 0xff}, {0xd5, 0x5e, 0x00, 0xff},
	{0xcc, 0x79, 0xa7, 0xff}, {0x56, 0xb4, 0xe9, 0xff}, {0xf0, 0xe4, 0x42, 0xff}, {0x00, 0x00, 0x00, 0xff},
}

// buildSweep returns the sweep section of doc, nil without a sweep.
func buildSweep(doc *results.Run) (*htmlSweep, error) {
	g, ok := sweepGrid(doc)
	if !ok {
		return nil, nil
	}
	s := &htmlSweep{Grid: htmlSummary{g.title, g.Header, g.Numeric, g.Rows}, Notes: g.notes}
	for _, p := range doc.Plateaus {
		s.Plateaus = append(s.Plateaus, p.Text+".")
	}
	keys, _ := results.SweepSeries(doc)
	for _, k := range keys {
		if len(s.Key) == 0 || s.Key[len(s.Key)-1].Codec != k[0] {
			c := sweepColors[len(s.Key)%len(sweepColors)]
			s.Key = append(s.Key, htmlKey{k[0], template.CSS(fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B))})
		}
	}
	var err error
	if s.NsChart, err = sweepChart(doc, "ns/op", func(r results.Row) float64 { return r.NsPerOp }); err != nil {
		return nil, fmt.Errorf("report: sweep chart: %w", err)
	}
	if s.MBChart, err = sweepChart(doc, "MB/s", func(r results.Row) float64 { return r.MBPerS }); err != nil {
		return nil, fmt.Errorf("report: sweep chart: %w", err)
	}
	return s, nil
}

// sweepChart draws y (ns/op or MB/s) against the encoding/json size of each
// sweep point, both axes logarithmic: one line per codec and op, a colour
// per codec (in run order, as htmlSweep.Key lists them), marshal solid and
// unmarshal dashed. The key is drawn in HTML, not in the chart, where it
// would hide lines.
func sweepChart(doc *results.Run, ylabel string, y func(results.Row) float64) (template.HTML, error) {
	keys, series := results.SweepSeries(doc)
	p := plot.New()
	for _, ts := range []*draw.TextStyle{&p.X.Label.TextStyle, &p.Y.Label.TextStyle, &p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		ts.Font = font.From(chartFont, ts.Font.Size)
	}
	p.X.Label.Text = "encoding/json size of the payload (bytes, log scale)"
	p.Y.Label.Text = ylabel + " (log scale)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker = sizeTicks{}
	p.Y.Tick.Marker = logTicks125{}
	color := map[string]int{}
	xmin, xmax := math.Inf(1), 0.0
	for _, k := range keys {
		if _, ok := color[k[0]]; !ok {
			color[k[0]] = len(color)
		}
		var xys plotter.XYs
		for _, pt := range series[k] {
			if v := y(pt.Row); v > 0 {
				xys = append(xys, plotter.XY{X: float64(pt.JSON), Y: v})
				xmin, xmax = min(xmin, float64(pt.JSON)), max(xmax, float64(pt.JSON))
			}
		}
		if len(xys) == 0 {
			continue
		}
		l, s, err := plotter.NewLinePoints(xys)
		if err != nil {
			return "", err
		}
		c := sweepColors[color[k[0]]%len(sweepColors)]
		l.Color, s.Color = c, c
		l.Width = vg.Points(1.5)
		s.Shape = draw.CircleGlyph{}
		if k[1] == results.OpUnmarshal {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			s.Shape = draw.BoxGlyph{}
		}
		p.Add(l, s)
	}
	if xmax > 0 {
		// Room for the end points and the ticks just beyond them (the
		// 1MiB point's JSON is a few bytes short of 1 MiB).
		p.X.Min, p.X.Max = xmin/1.2, xmax*1.2
	}
	c := vgsvg.New(halfChart, 4.5*vg.Inch)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", err
	}
	return template.HTML(inlineSVG(buf.String())), nil
}

// logTicks125 marks a logarithmic axis at 1, 2 and 5 times each power of
// ten in range, labelled, with unlabelled ticks at the other digits.
type logTicks125 struct{}

func (logTicks125) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	if min <= 0 || max <= min {
		return nil
	}
	for p := math.Pow(10, math.Floor(math.Log10(min))); p <= max; p *= 10 {
		for d := 1.0; d < 10; d++ {
			x := d * p
			if x < min || x > max {
				continue
			}
			t := plot.Tick{Value: x}
			if d == 1 || d == 2 || d == 5 {
				t.Label = shortNumber(x)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// shortNumber writes a tick value with k and M for thousands and millions:
// 500, 2k, 10M.
func shortNumber(x float64) string {
	switch {
	case x >= 1e6:
		return strconv.FormatFloat(x/1e6, 'g', -1, 64) + "M"
	case x >= 1e3:
		return strconv.FormatFloat(x/1e3, 'g', -1, 64) + "k"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// sizeTicks labels a logarithmic byte axis at powers of 4 from 1 KiB
// ("1KiB", "4KiB", ... "1MiB"), with unlabelled ticks at the powers of 2
// between.
type sizeTicks struct{}

func (sizeTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for n := int64(256); n <= scenario.MaxSweepBytes*2; n *= 2 {
		x := float64(n)
		if x < min/1.01 || x > max*1.01 {
			continue
		}
		t := plot.Tick{Value: x}
		if l := scenario.SizeLabel(n); n%1024 == 0 && (n/1024)&0x55555555 != 0 {
			t.Label = l
		} else if n < 1024 {
			t.Label = strconv.FormatInt(n, 10) + "B"
		}
		ts = append(ts, t)
	}
	if len(ts) == 0 {
		return plot.LogTicks{Prec: -1}.Ticks(min, max)
	}
	return ts
}
