package bench

import (
	"testing"

	"github.com/serbench/serbench/codec"
)

// TestResultOutcome checks the round-trip status a Result's OK, NA and
// samples give.
func TestResultOutcome(t *testing.T) {
	tests := []struct {
		r    Result
		want codec.Outcome
	}{
		{Result{NA: true, Error: "no schema"}, codec.NA},
		{Result{OK: true, Samples: []float64{1}}, codec.Kept},
		{Result{Samples: []float64{1}, Error: "x: 1 → 2"}, codec.Changed},
		{Result{Error: "marshal failed while timing"}, codec.Failed},
	}
	for _, tt := range tests {
		if got := tt.r.Outcome(); got != tt.want {
			t.Errorf("%+v: Outcome() = %s, want %s", tt.r, got, tt.want)
		}
	}
}
