package report

import (
	"math"
	"testing"

	"github.com/serbench/serbench/bench"
)

func TestWelch(t *testing.T) {
	// Speed-ups: higher is better, so a fall is a positive change.
	p, ch := welch([]float64{2, 2.02, 1.98}, []float64{1.8, 1.82, 1.78}, true)
	if p > 0.01 || math.Abs(ch-(2.0/1.8-1)) > 0.01 {
		t.Errorf("10%% fall: p %v, change %v", p, ch)
	}
	if p, _ := welch([]float64{2, 2.4, 1.9}, []float64{2.3, 1.95, 2.2}, true); p < 0.2 {
		t.Errorf("spread between runs taken for a change: p %v", p)
	}
	// No spread at all: equal is no change, different is certain.
	if p, ch := welch([]float64{3, 3}, []float64{3, 3}, false); p != 1 || ch != 0 {
		t.Errorf("equal constants: p %v, change %v", p, ch)
	}
	if p, ch := welch([]float64{3, 3}, []float64{4, 4}, false); p != 0 || math.Abs(ch-1.0/3) > 1e-12 {
		t.Errorf("different constants: p %v, change %v", p, ch)
	}
}

func TestMetricRuns(t *testing.T) {
	if p, ch := metricRuns([]float64{0, 0, 0}, []float64{1, 1, 1}); p != 0 || ch != 0 {
		t.Errorf("0 → 1 allocs/op: p %v, change %v (no ratio from 0)", p, ch)
	}
	if p, ch := metricRuns([]float64{1, 1, 1}, []float64{2, 2, 2}); p != 0 || ch != 1 {
		t.Errorf("1 → 2 allocs/op: p %v, change %v", p, ch)
	}
}

func TestCompareRunsEmpty(t *testing.T) {
	if _, err := CompareRuns(nil, []*Document{{}}, CompareOptions{}); err == nil {
		t.Error("an empty side compared")
	}
}

// TestCompareRunsRef checks that a cell with no speed-up (a convert) is
// tested between runs against the baseline's marshal in the same run: a
// machine 50% slower in the new runs moves nothing, a convert 20% slower
// is flagged.
func TestCompareRunsRef(t *testing.T) {
	run := func(machine, convert, jitter float64) *Document {
		cell := func(codec, op string, ns float64) bench.Result {
			return bench.Result{Codec: codec, Scenario: "s", Op: op, OK: true, NsPerOp: ns, Samples: []float64{ns}, Speedup: 1}
		}
		return &Document{Baseline: "encoding/json", Results: []bench.Result{
			cell("encoding/json", bench.OpMarshal, 1000*machine),
			cell("msgp", bench.OpConvert, 100*machine*convert*jitter),
		}}
	}
	jitter := []float64{1, 1.02, 0.98}
	var olds, sameNews, slowNews []*Document
	for _, j := range jitter {
		olds = append(olds, run(1, 1, j))
		sameNews = append(sameNews, run(1.5, 1, 2-j))
		slowNews = append(slowNews, run(1.5, 1.2, j))
	}
	for _, tc := range []struct {
		name string
		news []*Document
		sig  bool
	}{{"machine slower", sameNews, false}, {"convert slower", slowNews, true}} {
		c, err := CompareRuns(olds, tc.news, CompareOptions{By: BySpeedup})
		if err != nil {
			t.Fatal(err)
		}
		var row *CompareRow
		for i := range c.Rows {
			if c.Rows[i].Codec == "msgp" {
				row = &c.Rows[i]
			}
		}
		if row == nil || row.Basis != BasisRunsRef || row.Significant != tc.sig {
			t.Errorf("%s: row %+v, want basis %s, significant %v", tc.name, row, BasisRunsRef, tc.sig)
		}
	}
}
