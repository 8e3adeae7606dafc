package bench_test

import (
	"slices"
	"testing"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/stats"
)

func TestAddRegimes(t *testing.T) {
	two := append(slices.Repeat([]float64{100}, 5), slices.Repeat([]float64{180}, 5)...)
	kept := &stats.Regimes{FastNs: 1, SlowNs: 2, SlowShare: 0.5, Ratio: 2}
	rs := []results.Row{
		{Codec: "a", Samples: two},
		{Codec: "b", Samples: slices.Repeat([]float64{100}, 10)},
		{Codec: "c"},
		{Codec: "d", Samples: two, Regimes: kept},
	}
	results.AddRegimes(rs)
	if rs[0].Regimes == nil || rs[0].Regimes.FastNs != 100 || rs[0].Regimes.SlowNs != 180 {
		t.Errorf("a: Regimes = %+v, want 100 and 180 ns", rs[0].Regimes)
	}
	if rs[1].Regimes != nil || rs[2].Regimes != nil {
		t.Errorf("b, c: Regimes = %+v, %+v, want none", rs[1].Regimes, rs[2].Regimes)
	}
	if rs[3].Regimes != kept {
		t.Error("d: Regimes it had was replaced")
	}
}
