package bench

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/results"
)

// fakeCells returns named cells whose operation logs each call into log
// and takes the ns/op that next returns for it.
func fakeCells(log *[]string, names ...string) map[string]*cell {
	cs := map[string]*cell{}
	for _, name := range names {
		c := &cell{Row: results.Row{Codec: name, Iterations: 1}}
		c.fn = func(int) error {
			*log = append(*log, name)
			return nil
		}
		cs[name] = c
	}
	return cs
}

func TestSampleCellsOrder(t *testing.T) {
	var log []string
	cs := fakeCells(&log, "B", "C1", "C2", "U", "D")
	for _, n := range []string{"C1", "C2", "D"} {
		cs[n].base = cs["B"]
	}
	// D comes after an unpaired cell, so its group opens again; groupByBase
	// puts it next to C1 and C2 instead.
	order := []*cell{cs["B"], cs["C1"], cs["U"], cs["C2"], cs["D"]}
	for _, tc := range []struct {
		cells []*cell
		want  string
	}{
		{order, "B C1 B U B C2 B D B"},
		{groupByBase(order), "B C1 B C2 B D B U"},
		{[]*cell{cs["C2"], cs["C1"]}, "B C2 B C1 B"},
	} {
		log = nil
		sampleCells(tc.cells, func() bool { return true }, func() {})
		if got := strings.Join(log, " "); got != tc.want {
			t.Errorf("order %s, want %s", got, tc.want)
		}
		if n := pairedSamples(tc.cells); n != len(log) {
			t.Errorf("pairedSamples %d, took %d", n, len(log))
		}
	}
	for n, want := range map[string]int{"C1": 3, "C2": 3, "D": 2} {
		if len(cs[n].pairs) != want {
			t.Errorf("%s: %d pairs, want %d", n, len(cs[n].pairs), want)
		}
	}
	if len(cs["U"].pairs) != 0 || len(cs["B"].pairs) != 0 {
		t.Errorf("unpaired cells got pairs: U %v, B %v", cs["U"].pairs, cs["B"].pairs)
	}
}

func TestSampleCellsStops(t *testing.T) {
	var log []string
	cs := fakeCells(&log, "B", "C")
	cs["C"].base = cs["B"]
	budget := 2 // B, then C; the closing B is cut off
	sampleCells([]*cell{cs["C"]}, func() bool { budget--; return budget >= 0 }, func() {})
	if got := strings.Join(log, " "); got != "B C" {
		t.Fatalf("order %s, want B C", got)
	}
	if len(cs["C"].pairs) != 1 {
		t.Errorf("a pair cut short still pairs with its opening sample: %v", cs["C"].pairs)
	}
}

// TestPairRatios checks that each ratio is the mean of the bracketing
// baseline samples over the codec's, so that a step in machine speed
// between pairs cancels.
func TestPairRatios(t *testing.T) {
	b, c := &cell{}, &cell{}
	c.base = b
	// The machine is 2x slower from the third pair on: both sides double.
	bs := []float64{100, 100, 100, 200, 200}
	xs := []float64{50, 50, 100, 100}
	for i, x := range xs {
		c.addPair((bs[i]+bs[i+1])/2, x)
	}
	want := []float64{2, 2, 1.5, 2}
	if !slices.Equal(c.pairs, want) {
		t.Errorf("pairs %v, want %v", c.pairs, want)
	}
	c.addPair(100, 0)
	c.addPair(math.Inf(1), 10)
	if len(c.pairs) != len(want) {
		t.Errorf("zero or infinite samples made pairs: %v", c.pairs)
	}
}

// TestCalibratePreempted checks that one timing stretched by preemption
// does not end the calibration early: the count is timed again.
func TestCalibratePreempted(t *testing.T) {
	stretched := false
	c := &cell{}
	c.fn = func(n int) error {
		if n >= 100 && !stretched {
			stretched = true
			time.Sleep(40 * time.Millisecond) // the preempted timing
		}
		time.Sleep(time.Duration(n) * 20 * time.Microsecond)
		return nil
	}
	c.calibrate(20 * time.Millisecond)
	if !stretched || c.Iterations <= 100 {
		t.Errorf("calibrated to %d iterations after one stretched timing (stretched %v), want more than 100", c.Iterations, stretched)
	}
}
