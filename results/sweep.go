package results

import (
	"fmt"
	"sort"

	"github.com/serbench/serbench/document"
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

// SweepCell is one timed size of the sweep for a codec and op.
type SweepCell struct {
	// Target is the size the sweep point aims at
	// (scenario.SweepPoint.TargetBytes), JSON its encoding/json size, in
	// bytes.
	Target, JSON int64
	Row          Row
}

// SweepSeries returns, per (codec, op) in run order, the timed marshal and
// unmarshal results on the sweep scenarios of doc, by increasing size.
func SweepSeries(doc *Run) (keys [][2]string, series map[[2]string][]SweepCell) {
	points := map[string]*scenario.SweepPoint{}
	for _, s := range doc.Scenarios {
		if s.Sweep != nil {
			points[s.ID] = s.Sweep
		}
	}
	series = map[[2]string][]SweepCell{}
	for _, r := range doc.Results {
		p := points[r.Scenario]
		if p == nil || !r.OK || r.MBPerS <= 0 || (r.Op != OpMarshal && r.Op != OpUnmarshal) {
			continue
		}
		k := [2]string{r.Codec, r.Op}
		if _, ok := series[k]; !ok {
			keys = append(keys, k)
		}
		series[k] = append(series[k], SweepCell{p.TargetBytes, p.JSONBytes, r})
	}
	for _, k := range keys {
		s := series[k]
		sort.SliceStable(s, func(i, j int) bool { return s[i].Target < s[j].Target })
	}
	return keys, series
}

// Plateaus returns, per codec and op (marshal, unmarshal) timed on at least
// two sizes of the sweep, where its throughput plateau starts, in run
// order. Nil when doc has no sweep.
func Plateaus(doc *Run) []Plateau {
	keys, series := SweepSeries(doc)
	var out []Plateau
	for _, k := range keys {
		s := series[k]
		if len(s) < 2 {
			continue
		}
		mbps, hi := make([]float64, len(s)), make([]float64, len(s))
		for i, p := range s {
			mbps[i], hi[i] = p.Row.MBPerS, p.Row.MBPerS
			if lo := p.Row.NsPerOpLo; lo > 0 {
				hi[i] = float64(p.Row.SizeBytes) / lo * 1e3
			}
		}
		from, best := stats.PlateauStart(mbps, hi, PlateauTolerance)
		p := Plateau{Codec: k[0], Op: k[1], Family: scenario.SweepFamily, MaxMBPerS: mbps[best], MaxAtBytes: s[best].Target, Points: len(s)}
		last := len(s) - 1
		switch {
		case from < last:
			p.FromBytes = s[from].Target
			p.Text = fmt.Sprintf("%s %s: cost per byte stops falling at %s (%s MB/s there; from there on within %.0f%% of its best, %s MB/s at %s, or within noise of it)",
				p.Codec, p.Op, scenario.SizeLabel(p.FromBytes), document.Num(mbps[from]), 100*PlateauTolerance, document.Num(p.MaxMBPerS), scenario.SizeLabel(p.MaxAtBytes))
		case from == last:
			p.Text = fmt.Sprintf("%s %s: still getting cheaper per byte at %s (%s MB/s, its best; %s MB/s at %s is more than %.0f%% below): no plateau within the sweep",
				p.Codec, p.Op, scenario.SizeLabel(s[last].Target), document.Num(mbps[last]), document.Num(mbps[last-1]), scenario.SizeLabel(s[last-1].Target), 100*PlateauTolerance)
		default:
			p.Falls = true
			p.Text = fmt.Sprintf("%s %s: cheapest per byte at %s (%s MB/s), then dearer again: %s MB/s at %s is more than %.0f%% below",
				p.Codec, p.Op, scenario.SizeLabel(p.MaxAtBytes), document.Num(p.MaxMBPerS), document.Num(mbps[last]), scenario.SizeLabel(s[last].Target), 100*PlateauTolerance)
		}
		out = append(out, p)
	}
	return out
}
