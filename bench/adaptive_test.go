package bench

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/stdjson"
	"github.com/serbench/serbench/scenario"
)

func TestWideOrder(t *testing.T) {
	tight := []float64{100, 100, 100, 100, 100, 100, 100, 100, 100, 100}
	mid := []float64{95, 97, 99, 100, 100, 100, 101, 103, 105, 110}
	wide := []float64{60, 80, 90, 100, 100, 100, 110, 120, 150, 200}
	few := []float64{100, 100}
	fn := func(int) error { return nil }
	mk := func(name string, ns []float64) *cell {
		c := &cell{ns: ns, fn: fn}
		c.Codec = name
		return c
	}
	stopped := mk("stopped", wide)
	stopped.fn = nil
	s := &sampler{timed: []*cell{mk("tight", tight), mk("mid", mid), stopped, mk("wide", wide), mk("few", few)}, opts: Options{Target: 0.03}}
	var got []string
	for _, c := range s.wide() {
		got = append(got, c.Codec)
	}
	if want := "few wide mid"; strings.Join(got, " ") != want {
		t.Errorf("wide() = %q, want %q (no interval first, then widest; tight and stopped cells left out)", got, want)
	}
}

func TestAdaptiveMeasure(t *testing.T) {
	ss, err := scenario.Select(scenario.Seeds(), []string{"ws-message"})
	if err != nil {
		t.Fatal(err)
	}
	// An unreachable target: every cell keeps sampling until the budget ends.
	opts := Options{Benchtime: time.Millisecond, Target: 1e-9, MaxTime: 300 * time.Millisecond}
	var last Progress
	opts.Progress = func(p Progress) {
		if p.Cells != 2 || p.CellsDone < last.CellsDone || p.Done < last.Done || p.Done > last.Done+1 {
			t.Errorf("progress went from %+v to %+v, want 2 cells throughout, at most one unit a call", last, p)
		}
		last = p
	}
	m, err := Measure(context.Background(), []codec.Codec{stdjson.New()}, ss, opts)
	if err != nil {
		t.Fatal(err)
	}
	if last.CellsDone != 2 || last.Left != 0 {
		t.Errorf("last progress %+v, want both cells done, nothing left", last)
	}
	if m.Noise.Probes < 2*noiseProbes {
		t.Errorf("noise probes = %d, want at least %d (before the first round and after)", m.Noise.Probes, 2*noiseProbes)
	}
	if m.Noise.Iterations < 1 {
		t.Errorf("noise iterations = %d, want the calibration loop's count", m.Noise.Iterations)
	}
	for _, r := range m.Results {
		if !r.Timed() {
			t.Fatalf("%s %s not timed: %s", r.Codec, r.Op, r.Error)
		}
		if r.SamplesTaken != len(r.Samples) || r.SamplesTaken < MinAdaptiveCount {
			t.Errorf("%s: samples_taken %d, len(samples) %d, want equal and at least %d", r.Op, r.SamplesTaken, len(r.Samples), MinAdaptiveCount)
		}
		if !r.TargetMissed {
			t.Errorf("%s: target 1e-9 reported as met (half-width %v)", r.Op, r.HalfWidth)
		}
		if r.HalfWidth <= 0 || math.IsInf(r.HalfWidth, 0) {
			t.Errorf("%s: half-width %v, want a positive fraction", r.Op, r.HalfWidth)
		}
	}
}

func TestAdaptiveOptions(t *testing.T) {
	for _, o := range []Options{{Target: -0.1}, {Target: 1}, {Target: 0.03, Count: 3}, {Target: 0.03, MaxTime: -time.Second}} {
		if _, err := o.Effective(); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	o, err := Options{Target: 0.03}.Effective()
	if err != nil || o.Count != MinAdaptiveCount || o.MaxTime != DefaultMaxTime {
		t.Errorf("defaults with Target: Count %d, MaxTime %v, err %v", o.Count, o.MaxTime, err)
	}
}

// TestSamplesLeft: a cell with no interval needs as many samples again; a
// cell at twice the target needs four times its samples (1/√n); a paired
// cell's count twice; none more than MaxCount in all.
func TestSamplesLeft(t *testing.T) {
	fn := func(int) error { return nil }
	few := &cell{ns: []float64{100, 100}, fn: fn}
	wide := &cell{ns: []float64{60, 80, 90, 100, 100, 100, 110, 120, 150, 200}, fn: fn}
	hw, ok := wide.targetHalfWidth()
	if !ok {
		t.Fatal("no interval for ten samples")
	}
	if got := samplesLeft([]*cell{few}, 0.03); got != 2 {
		t.Errorf("no interval, 2 samples: %d left, want 2", got)
	}
	if got := samplesLeft([]*cell{wide}, hw/2); got != 30 {
		t.Errorf("10 samples at twice the target: %d left, want 30", got)
	}
	paired := &cell{ns: wide.ns, fn: fn, base: few}
	if got := samplesLeft([]*cell{paired}, 1e-9); got != 2*(MaxCount-10) {
		t.Errorf("paired cell, unreachable target: %d left, want %d", got, 2*(MaxCount-10))
	}
}
