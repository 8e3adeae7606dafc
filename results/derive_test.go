package results

import (
	"slices"
	"testing"

	"github.com/serbench/serbench/stats"
)

// With pair ratios a speed-up is their median and its interval with the
// sign test, not the ratio of medians; the adaptive target reads the same
// interval without the derived fields.
func TestDerivePairedSpeedups(t *testing.T) {
	ratios := []float64{2.1, 1.9, 2.0, 2.05, 1.95, 2.0, 2.02, 1.98}
	in := []Row{
		{Codec: "base", Op: "marshal", NsPerOp: 100, Samples: []float64{100, 100}},
		{Codec: "x", Op: "marshal", NsPerOp: 40, Samples: []float64{40, 40}, PairRatios: ratios},
	}
	r := NewRun(Inputs{Rows: in, Baseline: "base"}).Results[1]
	// The median of the pairs (2.0), not the ratio of medians (2.5).
	if r.Speedup != 2 || !(r.SpeedupLo < 2 && r.SpeedupHi > 2) || r.SpeedupHi > 2.1 {
		t.Errorf("speed-up %v [%v, %v], want 2 within the pairs' range", r.Speedup, r.SpeedupLo, r.SpeedupHi)
	}
	if r.SpeedupP > 0.01 {
		t.Errorf("sign test p %v: all pairs above 1", r.SpeedupP)
	}
	hw, ok := r.TargetHalfWidth()
	if want, wantOK := stats.RatioHalfWidth(r.Speedup, r.SpeedupLo, r.SpeedupHi); !ok || hw != want || !wantOK {
		t.Errorf("target half-width %v %v, want the speed-up's %v", hw, ok, want)
	}
	if hw, ok := in[1].TargetHalfWidth(); !ok || hw <= 0 || hw > 0.06 {
		t.Errorf("target half-width of the measured row %v %v", hw, ok)
	}
	if !slices.Equal(r.PairRatios, ratios) || in[1].Speedup != 0 {
		t.Errorf("NewRun reordered the pairs (%v) or changed its input (speed-up %v)", r.PairRatios, in[1].Speedup)
	}
}

// derive computes each figure only where a row lacks it: a document read
// back keeps what it was written with, and one written before a figure
// existed gets it.
func TestDeriveFillsWhatIsMissing(t *testing.T) {
	two := append(slices.Repeat([]float64{100}, 5), slices.Repeat([]float64{180}, 5)...)
	kept := &stats.Modes{FastNs: 1, SlowNs: 2, SlowShare: 0.5, Ratio: 2}
	run := &Run{Baseline: "a", Results: []Row{
		{Codec: "a", Op: OpMarshal, NsPerOp: 140, Samples: two, SizeBytes: 200},
		{Codec: "b", Op: OpMarshal, NsPerOp: 100, Samples: slices.Repeat([]float64{100}, 10)},
		{Codec: "c", Op: OpMarshal},
		{Codec: "d", Op: OpMarshal, NsPerOp: 140, Samples: two, Derived: Derived{Speedup: 3, Modes: kept}},
		{Codec: "e", Op: "compress:zstd", NsPerOp: 50, Samples: []float64{50}, CompressedBytes: 20},
	}}
	run.derive()
	rs := run.Results
	if rs[0].Modes == nil || rs[0].Modes.FastNs != 100 || rs[0].Modes.SlowNs != 180 {
		t.Errorf("a: Modes = %+v, want 100 and 180 ns", rs[0].Modes)
	}
	if rs[1].Modes != nil || rs[2].Modes != nil {
		t.Errorf("b, c: Modes = %+v, %+v, want none", rs[1].Modes, rs[2].Modes)
	}
	if rs[3].Modes != kept || rs[3].Speedup != 3 {
		t.Errorf("d: Modes %+v, speed-up %v: the figures it had were replaced", rs[3].Modes, rs[3].Speedup)
	}
	if rs[0].Speedup != 1 || rs[1].Speedup != 1.4 || rs[2].Speedup != 0 {
		t.Errorf("speed-ups %v %v %v, want 1, 1.4 and none for the untimed cell", rs[0].Speedup, rs[1].Speedup, rs[2].Speedup)
	}
	if rs[4].BytesOverJSON != 0.1 {
		t.Errorf("e: BytesOverJSON %v, want 20 compressed bytes over 200 of the baseline's", rs[4].BytesOverJSON)
	}
	if run.Recommendations == nil && run.Geomeans == nil {
		t.Error("derive did not analyse the run")
	}
}
