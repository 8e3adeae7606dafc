package compare

import (
	"testing"

	"github.com/serbench/serbench/results"
)

func TestCompareRunsEmpty(t *testing.T) {
	if _, err := CompareRuns(nil, []*results.Run{{}}, CompareOptions{}); err == nil {
		t.Error("an empty side compared")
	}
}

// TestCompareRunsRef checks that a cell with no speed-up (a convert) is
// tested between runs against the baseline's marshal in the same run: a
// machine 50% slower in the new runs moves nothing, a convert 20% slower
// is flagged.
func TestCompareRunsRef(t *testing.T) {
	run := func(machine, convert, jitter float64) *results.Run {
		cell := func(codec, op string, ns float64) results.Row {
			return results.Row{Codec: codec, Scenario: "s", Op: op, OK: true, NsPerOp: ns, Samples: []float64{ns}, Derived: results.Derived{Speedup: 1}}
		}
		return &results.Run{Baseline: "encoding/json", Results: []results.Row{
			cell("encoding/json", results.OpMarshal, 1000*machine),
			cell("msgp", results.OpConvert, 100*machine*convert*jitter),
		}}
	}
	jitter := []float64{1, 1.02, 0.98}
	var olds, sameNews, slowNews []*results.Run
	for _, j := range jitter {
		olds = append(olds, run(1, 1, j))
		sameNews = append(sameNews, run(1.5, 1, 2-j))
		slowNews = append(slowNews, run(1.5, 1.2, j))
	}
	for _, tc := range []struct {
		name string
		news []*results.Run
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
