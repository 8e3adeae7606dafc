package env

import (
	"strings"
	"testing"
)

func TestCoreSharingJudge(t *testing.T) {
	all := func(v float64) []float64 { return []float64{v, v, v, v, v, v, v, v} }
	for _, tc := range []struct {
		name           string
		idle, busy     float64
		rounds         []float64
		shared, unsure bool
	}{
		{"sibling slows every round", 1e6, 1.4e6, all(1.4), true, false},
		{"one odd round is tolerated", 1e6, 1.4e6, []float64{1.4, 1.4, 1.0, 1.4, 1.4, 1.4, 1.4, 1.4}, true, false},
		// What a co-runner did once: the overall median doubled, but only in
		// some rounds.
		{"rounds disagree", 1e6, 2.02e6, []float64{2.1, 1.0, 2.0, 1.0, 1.01, 2.2, 1.0, 2.05}, false, true},
		{"separate cores", 1e6, 1.01e6, all(1.01), false, false},
		{"no idle timing", 0, 1e6, nil, false, false},
	} {
		c := CoreSharing{CPU: 0, Neighbour: 1, IdleNs: tc.idle, BusyNs: tc.busy, RoundSlowdowns: tc.rounds}
		c.Judge()
		if c.Shared != tc.shared || c.Unsure != tc.unsure {
			t.Errorf("%s: shared %v, unsure %v; want %v, %v", tc.name, c.Shared, c.Unsure, tc.shared, tc.unsure)
		}
		if tc.unsure && !strings.Contains(c.Verdict(), "could not tell") {
			t.Errorf("%s: Verdict() = %q, want it to say the check could not tell", tc.name, c.Verdict())
		}
	}
}
