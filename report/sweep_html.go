package report

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/scenario"
)

// htmlSweep is the size-sweep section of the HTML report.
type htmlSweep struct {
	NsChart, MBChart template.HTML
	Grid             htmlSummary
	Notes            []string
	Plateaus         []string
}

// sweepColors tell codecs apart in the sweep charts (the Okabe-Ito
// palette, distinguishable with the common colour-vision deficiencies),
// repeated beyond eight codecs.
var sweepColors = []color.RGBA{
	{0x00, 0x72, 0xb2, 0xff}, {0xe6, 0x9f, 0x00, 0xff}, {0x00, 0x9e, 0x73, 0xff}, {0xd5, 0x5e, 0x00, 0xff},
	{0xcc, 0x79, 0xa7, 0xff}, {0x56, 0xb4, 0xe9, 0xff}, {0xf0, 0xe4, 0x42, 0xff}, {0x00, 0x00, 0x00, 0xff},
}

// buildSweep returns the sweep section of doc, nil without a sweep.
func buildSweep(doc *Document) (*htmlSweep, error) {
	g, ok := sweepGrid(doc)
	if !ok {
		return nil, nil
	}
	s := &htmlSweep{Grid: htmlSummary{g.title, g.header, g.rightAlign, g.rows}, Notes: g.notes}
	for _, p := range Plateaus(doc) {
		s.Plateaus = append(s.Plateaus, p.Text+".")
	}
	var err error
	if s.NsChart, err = sweepChart(doc, "ns/op", func(r bench.Result) float64 { return r.NsPerOp }); err != nil {
		return nil, fmt.Errorf("report: sweep chart: %w", err)
	}
	if s.MBChart, err = sweepChart(doc, "MB/s", func(r bench.Result) float64 { return r.MBPerS }); err != nil {
		return nil, fmt.Errorf("report: sweep chart: %w", err)
	}
	return s, nil
}

// sweepChart draws y (ns/op or MB/s) against the encoding/json size of each
// sweep point, both axes logarithmic: one line per codec and op, a colour
// per codec, marshal solid and unmarshal dashed.
func sweepChart(doc *Document, ylabel string, y func(bench.Result) float64) (template.HTML, error) {
	keys, series := sweepSeries(doc)
	p := plot.New()
	for _, ts := range []*draw.TextStyle{&p.X.Label.TextStyle, &p.Y.Label.TextStyle, &p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		ts.Font = font.From(chartFont, ts.Font.Size)
	}
	p.X.Label.Text = "encoding/json size of the payload (bytes, log scale)"
	p.Y.Label.Text = ylabel + " (log scale)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker = sizeTicks{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, ylabel == "MB/s"
	p.Legend.Padding = vg.Points(2)
	color := map[string]int{}
	for _, k := range keys {
		if _, ok := color[k[0]]; !ok {
			color[k[0]] = len(color)
		}
		var xys plotter.XYs
		for _, pt := range series[k] {
			if v := y(pt.r); v > 0 {
				xys = append(xys, plotter.XY{X: float64(pt.json), Y: v})
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
		if k[1] == bench.OpUnmarshal {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			s.Shape = draw.BoxGlyph{}
		}
		p.Add(l, s)
		p.Legend.Add(k[0]+" "+k[1], l, s)
	}
	c := vgsvg.New(halfChart, 4.5*vg.Inch)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", err
	}
	return template.HTML(inlineSVG(buf.String())), nil
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
