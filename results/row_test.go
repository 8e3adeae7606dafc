package results

import (
	"testing"

	"github.com/serbench/serbench/codec"
)

// TestResultOutcome checks the round-trip status a Result's OK, NA and
// samples give.
func TestResultOutcome(t *testing.T) {
	tests := []struct {
		r    Row
		want codec.Outcome
	}{
		{Row{NA: true, Error: "no schema"}, codec.NA},
		{Row{OK: true, Samples: []float64{1}}, codec.Kept},
		{Row{Samples: []float64{1}, Error: "x: 1 → 2"}, codec.Changed},
		{Row{Error: "marshal failed while timing"}, codec.Failed},
	}
	for _, tt := range tests {
		if got := tt.r.Outcome(); got != tt.want {
			t.Errorf("%+v: Outcome() = %s, want %s", tt.r, got, tt.want)
		}
	}
}
