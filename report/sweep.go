package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/stats"
)

// PlateauTolerance is the rule of the throughput plateau of the size sweep:
// a codec's plateau starts at the smallest sweep size from which its MB/s
// stays within this fraction of its best (largest median) MB/s on the
// sweep, at that size and every larger one. 0.10: within 10%. A size
// counts as within when the upper end of its MB/s 95% interval (encoded
// bytes over the lower end of the ns/op interval) is, so that noise alone
// does not end a plateau; a cell without an interval (fewer than 6
// samples) is judged by its median.
const PlateauTolerance = 0.10

// Plateau is where one codec's cost per byte stops falling on one op over
// the size sweep (see PlateauTolerance).
type Plateau struct {
	Codec string `json:"codec"`
	Op    string `json:"op"`
	// Family is the payload swept (scenario.SweepFamily).
	Family string `json:"family"`
	// FromBytes is the target size (scenario.SweepPoint.TargetBytes) where
	// the plateau starts; 0 when there is none within the sweep: either
	// the MB/s still rises by more than PlateauTolerance to the largest
	// size (Falls false), or it falls more than that below its best at the
	// largest size (Falls true).
	FromBytes int64 `json:"from_bytes"`
	Falls     bool  `json:"falls,omitempty"`
	// MaxMBPerS is the codec's best MB/s on the sweep, at MaxAtBytes.
	MaxMBPerS  float64 `json:"max_mb_per_s"`
	MaxAtBytes int64   `json:"max_at_bytes"`
	// Points is the number of sweep sizes the codec was timed at.
	Points int `json:"points"`
	// Text says it in a sentence.
	Text string `json:"text"`
}

// SweepPoint is one timed size of the sweep for a codec and op.
type sweepPoint struct {
	target int64
	json   int64 // encoding/json bytes
	r      results.Row
}

// sweepSeries returns, per (codec, op) in run order, the timed marshal and
// unmarshal results on the sweep scenarios of doc, by increasing size.
func sweepSeries(doc *Document) (keys [][2]string, series map[[2]string][]sweepPoint) {
	points := map[string]*scenario.SweepPoint{}
	for _, s := range doc.Scenarios {
		if s.Sweep != nil {
			points[s.ID] = s.Sweep
		}
	}
	series = map[[2]string][]sweepPoint{}
	for _, r := range doc.Results {
		p := points[r.Scenario]
		if p == nil || !r.OK || r.MBPerS <= 0 || (r.Op != results.OpMarshal && r.Op != results.OpUnmarshal) {
			continue
		}
		k := [2]string{r.Codec, r.Op}
		if _, ok := series[k]; !ok {
			keys = append(keys, k)
		}
		series[k] = append(series[k], sweepPoint{p.TargetBytes, p.JSONBytes, r})
	}
	for _, k := range keys {
		s := series[k]
		sort.SliceStable(s, func(i, j int) bool { return s[i].target < s[j].target })
	}
	return keys, series
}

// Plateaus returns, per codec and op (marshal, unmarshal) timed on at least
// two sizes of the sweep, where its throughput plateau starts, in run
// order. Nil when doc has no sweep.
func Plateaus(doc *Document) []Plateau {
	keys, series := sweepSeries(doc)
	var out []Plateau
	for _, k := range keys {
		s := series[k]
		if len(s) < 2 {
			continue
		}
		mbps, hi := make([]float64, len(s)), make([]float64, len(s))
		for i, p := range s {
			mbps[i], hi[i] = p.r.MBPerS, p.r.MBPerS
			if lo := p.r.NsPerOpLo; lo > 0 {
				hi[i] = float64(p.r.SizeBytes) / lo * 1e3
			}
		}
		from, best := stats.PlateauStart(mbps, hi, PlateauTolerance)
		p := Plateau{Codec: k[0], Op: k[1], Family: scenario.SweepFamily, MaxMBPerS: mbps[best], MaxAtBytes: s[best].target, Points: len(s)}
		last := len(s) - 1
		switch {
		case from < last:
			p.FromBytes = s[from].target
			p.Text = fmt.Sprintf("%s %s: cost per byte stops falling at %s (%s MB/s there; from there on within %.0f%% of its best, %s MB/s at %s, or within noise of it)",
				p.Codec, p.Op, scenario.SizeLabel(p.FromBytes), num(mbps[from]), 100*PlateauTolerance, num(p.MaxMBPerS), scenario.SizeLabel(p.MaxAtBytes))
		case from == last:
			p.Text = fmt.Sprintf("%s %s: still getting cheaper per byte at %s (%s MB/s, its best; %s MB/s at %s is more than %.0f%% below): no plateau within the sweep",
				p.Codec, p.Op, scenario.SizeLabel(s[last].target), num(mbps[last]), num(mbps[last-1]), scenario.SizeLabel(s[last-1].target), 100*PlateauTolerance)
		default:
			p.Falls = true
			p.Text = fmt.Sprintf("%s %s: cheapest per byte at %s (%s MB/s), then dearer again: %s MB/s at %s is more than %.0f%% below",
				p.Codec, p.Op, scenario.SizeLabel(p.MaxAtBytes), num(p.MaxMBPerS), num(mbps[last]), scenario.SizeLabel(s[last].target), 100*PlateauTolerance)
		}
		out = append(out, p)
	}
	return out
}

// plateauRule states the rule of Plateaus in a sentence.
func plateauRule() string {
	return fmt.Sprintf("Throughput plateau: the smallest sweep size from which a codec's MB/s stays within %.0f%% of its best median MB/s on the sweep, at every larger size too (a size counts when the upper end of its 95%% interval is within).", 100*PlateauTolerance)
}

// sweepGrid lays out the sweep as one row per codec and op and one column
// per size: MB/s at that size, then where the plateau starts.
func sweepGrid(doc *Document) (grid, bool) {
	keys, series := sweepSeries(doc)
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
	plateaus := map[[2]string]Plateau{}
	for _, p := range doc.Plateaus {
		plateaus[[2]string{p.Codec, p.Op}] = p
	}
	for _, k := range keys {
		row := []string{k[0], k[1]}
		at := map[int64]float64{}
		for _, p := range series[k] {
			at[p.target] = p.r.MBPerS
		}
		for _, n := range sizes {
			cell := ""
			if x, ok := at[n]; ok {
				cell = num(x)
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
func writeSweepTable(ew *document.ErrWriter, doc *Document) {
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
func writeSweepMarkdown(ew *document.ErrWriter, doc *Document) {
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
