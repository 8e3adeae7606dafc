package report

import (
	"testing"

	"github.com/serbench/serbench/env"
)

func TestNoiseLine(t *testing.T) {
	steal, own := 0.004, 1.12
	old := "machine noise: calibration loop spread 6.2% (IQR/median of 30 timings of 24.0 ms), drift -1.1%, steal 0.4%"
	for _, tc := range []struct {
		name string
		n    *env.Noise
		want string
	}{
		{"not measured", nil, ""},
		{"no timings", &env.Noise{}, ""},
		// A document written before the other probes existed prints as it
		// always did.
		{"calibration loop only", &env.Noise{Probes: 30, ProbeNs: 24e6, Spread: 0.062, Drift: -0.011, Steal: &steal}, old},
		{"every figure", &env.Noise{Probes: 30, ProbeNs: 24e6, Spread: 0.062, Drift: -0.011, Steal: &steal,
			ILP:     &env.ProbeStats{Probes: 30, ProbeNs: 1e6, Spread: 0.062},
			Chase:   &env.ProbeStats{Probes: 30, ProbeNs: 1e6, Spread: 0.031},
			Stream:  &env.ProbeStats{Probes: 30, ProbeNs: 1e6, Spread: 0.02},
			CPUBusy: []env.CPUBusy{{CPU: 0, Busy: 0.994}, {CPU: 1, Busy: 0.38}}, OwnCPUs: &own,
			CoreSharing: &env.CoreSharing{CPU: 0, Neighbour: 1, Slowdown: 1.24, Shared: true}},
			old + ", ILP probe spread 6.2%, pointer chase spread 3.1%, stream spread 2.0%; busy during sampling: CPU 0 99%, CPU 1 38% (serbench's own threads 1.12 CPUs of it); CPUs 0 and 1 share a core (a busy neighbour slows the ILP probe by 24%)"},
		{"separate cores, no own CPU time", &env.Noise{Probes: 30, ProbeNs: 24e6, Spread: 0.062, Drift: -0.011, Steal: &steal,
			CPUBusy:     []env.CPUBusy{{CPU: 0, Busy: 1}},
			CoreSharing: &env.CoreSharing{CPU: 0, Neighbour: 1, Slowdown: 1.02}},
			old + "; busy during sampling: CPU 0 100%; CPUs 0 and 1 do not appear to share a core (a busy neighbour: +2% on the ILP probe)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := noiseLine(tc.n); got != tc.want {
				t.Errorf("noiseLine:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
