package bench

import (
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/env"
)

func TestFillCycle(t *testing.T) {
	buf := make([]uint32, 1000)
	fillCycle(buf)
	seen := make([]bool, len(buf))
	i := uint32(0)
	for range len(buf) {
		if seen[i] {
			t.Fatalf("index %d visited twice: not one cycle", i)
		}
		seen[i] = true
		i = buf[i]
	}
	if i != 0 {
		t.Errorf("after %d links the chase is at %d, want back at 0", len(buf), i)
	}
}

// TestNoiseMeterProbes runs the meter as the sampler does and checks that
// every probe it could run was timed (positive timings), and that what it
// could not measure is named. It asserts nothing about speed.
func TestNoiseMeterProbes(t *testing.T) {
	m := newNoiseMeter(100 * time.Microsecond)
	m.start()
	m.probe()
	m.probe()
	m.stop()
	n := m.result()
	if n.Probes != 2*noiseProbes || n.ProbeNs <= 0 {
		t.Errorf("calibration loop: %d timings, median %v ns", n.Probes, n.ProbeNs)
	}
	probes := map[string]*env.ProbeStats{"ilp": n.ILP, "chase": n.Chase, "stream": n.Stream}
	for name, p := range probes {
		if p == nil {
			if name == "ilp" || !strings.Contains(strings.Join(n.Unreadable, "\n"), "pointer chase and stream") {
				t.Errorf("%s probe missing, unreadable: %q", name, n.Unreadable)
			}
			continue
		}
		if p.Probes != 2*noiseProbes || p.ProbeNs <= 0 || p.MinNs <= 0 || p.MinNs > p.ProbeNs {
			t.Errorf("%s probe: %+v", name, *p)
		}
	}
	if n.CoreSharing == nil && !strings.Contains(strings.Join(n.Unreadable, "\n"), "core sharing") {
		t.Errorf("no core-sharing check and no reason: %q", n.Unreadable)
	}
	if cs := n.CoreSharing; cs != nil && (cs.IdleNs <= 0 || cs.BusyNs <= 0 || cs.CPU == cs.Neighbour) {
		t.Errorf("core sharing: %+v", *cs)
	}
	for _, c := range n.CPUBusy {
		if c.Busy < 0 || c.Busy > 1 {
			t.Errorf("CPU %d busy %v, outside [0,1]", c.CPU, c.Busy)
		}
	}
	t.Logf("%+v", n)
}
