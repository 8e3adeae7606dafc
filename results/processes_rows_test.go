package results

import (
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench/stats"
)

// processRun is one process's rows of a two-cell matrix: the baseline and
// one codec, both marshal, the codec's samples ns and pair ratios pairs;
// with their speed-ups, as NewRun derives them.
func processRun(base, ns, pairs []float64, bytes int64) []Row {
	cell := func(codec string, s, p []float64) Row {
		r := Row{Codec: codec, Scenario: "s", Op: OpMarshal, OK: true, SizeBytes: 100, Samples: s, PairRatios: p, BytesPerOp: bytes, AllocsPerOp: 1}
		r.NsPerOp, r.NsPerOpLo, r.NsPerOpHi = stats.Summarize(s)
		return r
	}
	return NewRun(Inputs{Rows: []Row{cell("base", base, nil), cell("c", ns, pairs)}, Baseline: "base"}).Results
}

func TestMergeRows(t *testing.T) {
	base := []float64{100, 101, 99, 100, 102, 98}
	p1 := processRun(base, []float64{50, 51, 49, 50, 50, 52}, []float64{2, 2, 2, 2, 2, 2}, 64)
	p2 := processRun(base, []float64{40, 41, 39, 40, 40, 42}, []float64{2.5, 2.5, 2.5, 2.5, 2.5, 2.5}, 64)
	merged, err := MergeProcesses([]*Run{{Baseline: "base", Target: 0.03, Results: p1}, {Baseline: "base", Target: 0.03, Results: p2}})
	if err != nil {
		t.Fatal(err)
	}
	got := merged.Results
	c := got[1]
	if want := append(slices.Clone(p1[1].Samples), p2[1].Samples...); !slices.Equal(c.Samples, want) {
		t.Errorf("samples %v, want both processes' in order %v", c.Samples, want)
	}
	if len(c.PairRatios) != 12 || c.SamplesTaken != 12 {
		t.Errorf("pooled %d pair ratios, %d samples taken; want 12 each", len(c.PairRatios), c.SamplesTaken)
	}
	if len(c.Processes) != 2 || c.Processes[0].Speedup != 2 || c.Processes[1].Speedup != 2.5 || c.Processes[1].Samples != 6 {
		t.Errorf("processes %+v, want speed-ups 2 and 2.5 of 6 samples each", c.Processes)
	}
	if !(c.Speedup >= 2 && c.Speedup <= 2.5) || c.SpeedupLo == 0 {
		t.Errorf("pooled speed-up %v [%v, %v], want the median of the pooled pairs with an interval", c.Speedup, c.SpeedupLo, c.SpeedupHi)
	}
	if !c.TargetMissed {
		t.Errorf("pairs of 2 and 2.5 pooled meet a ±3%% target; want TargetMissed")
	}
	if c.MBPerS == 0 || c.BytesPerOp != 64 {
		t.Errorf("MB/s %v, B/op %d: want them from the pooled figures", c.MBPerS, c.BytesPerOp)
	}
	if got[0].Processes == nil || got[0].Speedup != 1 {
		t.Errorf("baseline %+v: want its processes and a speed-up of 1", got[0])
	}
	if p1[1].Processes != nil || len(p1[1].Samples) != 6 {
		t.Errorf("MergeProcesses changed its input: %+v", p1[1])
	}
}

func TestMergeProcessesUntimed(t *testing.T) {
	base := []float64{100, 101, 99, 100, 102, 98}
	p1 := processRun(base, []float64{50, 51, 49, 50, 50, 52}, nil, 0)
	p2 := processRun(base, nil, nil, 0)
	p2[1].OK, p2[1].Error = false, "marshal: boom"
	got, err := mergeRows([][]Row{p1, p2}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got[1].Timed() || got[1].Error != "marshal: boom" {
		t.Errorf("a cell that failed in one process: got %+v, want that process's failure", got[1])
	}
}

func TestMergeProcessesErrors(t *testing.T) {
	base := []float64{100, 101, 99, 100, 102, 98}
	one := processRun(base, base, nil, 0)
	other := processRun(base, base, nil, 0)
	other[1].Codec = "d"
	for _, tc := range []struct {
		name string
		runs [][]Row
		want string
	}{
		{"one process", [][]Row{one}, "range is [2, 16]"},
		{"cells differ", [][]Row{one, other}, "process 2 lacks cell c/s/marshal"},
		{"cell count", [][]Row{one, one[:1]}, "process 2 has 1 cells"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mergeRows(tc.runs, 0)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
