package env

import (
	"strings"
	"testing"
)

func TestNoiseAdvice(t *testing.T) {
	steal := 0.05
	n := Noise{Probes: 30, Spread: 0.08, Drift: 0.05, Steal: &steal}
	if got := n.SamplesNeeded(0.03); got != 256 {
		t.Errorf("SamplesNeeded(3%%) with 8%% spread = %d, want 256 ((6*8/3)^2)", got)
	}
	adv := strings.Join(n.Advice(0.03, 100), "\n")
	for _, want := range []string{"-max-time", "-pin", "drifted +5.0%", "5.0% of CPU time was stolen"} {
		if !strings.Contains(adv, want) {
			t.Errorf("advice lacks %q:\n%s", want, adv)
		}
	}
	quiet := Noise{Probes: 30, Spread: 0.01}
	if adv := quiet.Advice(0.03, 10); adv != nil { // needs 4 samples
		t.Errorf("a quiet machine got advice: %q", adv)
	}
}

func TestCoreSharingVerdict(t *testing.T) {
	for _, tc := range []struct {
		cs   CoreSharing
		want string
	}{
		{CoreSharing{CPU: 0, Neighbour: 1, Slowdown: 1.24, Shared: true},
			"CPUs 0 and 1 appear to share a physical core (hyperthreads): a busy neighbour slows the ILP probe by 24%"},
		{CoreSharing{CPU: 2, Neighbour: 5, Slowdown: 1.03},
			"CPUs 2 and 5 appear to be separate cores: a busy neighbour changes the ILP probe by +3%"},
		{CoreSharing{CPU: 0, Neighbour: 1, Slowdown: 0.998},
			"CPUs 0 and 1 appear to be separate cores: a busy neighbour changes the ILP probe by +0%"},
		{CoreSharing{CPU: 0, Neighbour: 1, Slowdown: 0.97},
			"CPUs 0 and 1 appear to be separate cores: a busy neighbour changes the ILP probe by -3%"},
	} {
		if got := tc.cs.Verdict(); got != tc.want {
			t.Errorf("Verdict() = %q, want %q", got, tc.want)
		}
	}
}

func TestNoiseAdviceSharedCore(t *testing.T) {
	own := 1.05
	n := Noise{Probes: 30, Spread: 0.01, OwnCPUs: &own,
		CPUBusy:     []CPUBusy{{CPU: 0, Busy: 0.99}, {CPU: 1, Busy: 0.38}},
		CoreSharing: &CoreSharing{CPU: 0, Neighbour: 1, Slowdown: 1.24, Shared: true}}
	if others, ok := n.OthersCPUs(); !ok || others < 0.319 || others > 0.321 {
		t.Errorf("OthersCPUs() = %v, %v, want 0.32, true", others, ok)
	}
	adv := strings.Join(n.Advice(0.03, 100), "\n")
	for _, want := range []string{"CPUs 0 and 1 appear to share a physical core", "by 24%", "kept 0.32 CPUs busy"} {
		if !strings.Contains(adv, want) {
			t.Errorf("advice lacks %q:\n%s", want, adv)
		}
	}
	n.CoreSharing.Shared, n.CoreSharing.Slowdown = false, 1.02
	if adv := n.Advice(0.03, 100); adv != nil {
		t.Errorf("separate cores got advice: %q", adv)
	}
	n.OwnCPUs = nil
	if _, ok := n.OthersCPUs(); ok {
		t.Error("OthersCPUs without OwnCPUs: ok")
	}
}
