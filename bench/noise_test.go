package bench

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// procStatText is /proc/stat as Linux 6.x writes it, with two CPUs, a
// short line for cpu2 and a cpuX line that names no CPU.
const procStatText = `cpu  1000 10 500 8000 100 20 30 40 0 0
cpu0 600 5 300 3900 50 10 15 20 0 0
cpu1 400 5 200 4100 50 10 15 20 0 0
cpu2 1 2
cpuX 1 2 3 4 5 6 7 8 9 10
intr 123456 0 9 0
ctxt 987654
btime 1764165600
`

func TestParseProcStat(t *testing.T) {
	st, err := parseProcStat(procStatText)
	if err != nil {
		t.Fatal(err)
	}
	if want := (cpuTicks{total: 9700, idle: 8100, steal: 40}); st.all != want {
		t.Errorf("cpu = %+v, want %+v", st.all, want)
	}
	want := map[int]cpuTicks{
		0: {total: 4900, idle: 3950, steal: 20},
		1: {total: 4800, idle: 4150, steal: 20},
	}
	if !reflect.DeepEqual(st.perCPU, want) {
		t.Errorf("per CPU = %+v, want %+v (cpu2 is short, cpuX no CPU)", st.perCPU, want)
	}
	for _, tc := range []struct{ name, text string }{
		{"empty", ""},
		{"no aggregate line", "cpu0 1 2 3 4 5 6 7 8\n"},
		{"short aggregate line", "cpu 1 2 3\ncpu0 1 2 3 4 5 6 7 8\n"},
		{"aggregate not numeric", "cpu 1 2 3 x 5 6 7 8\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := parseProcStat(tc.text); err == nil || !strings.HasPrefix(err.Error(), "bench: /proc/stat: ") {
				t.Errorf("error %v, want one starting bench: /proc/stat:", err)
			}
		})
	}
}

func TestBusyShares(t *testing.T) {
	a, err := parseProcStat(procStatText)
	if err != nil {
		t.Fatal(err)
	}
	// 100 ticks later: cpu0 was busy 80 of them, cpu1 25 (20 idle, 5
	// iowait counted as idle: 75 idle); cpu3 appeared (hot-plugged) and
	// has no earlier reading.
	b, err := parseProcStat(`cpu  1105 10 500 8095 100 20 30 40 0 0
cpu0 680 5 300 3920 50 10 15 20 0 0
cpu1 425 5 200 4170 55 10 15 20 0 0
cpu3 9 0 0 9 0 0 0 0 0 0
`)
	if err != nil {
		t.Fatal(err)
	}
	got := busyShares(a, b)
	want := []CPUBusy{{CPU: 0, Busy: 0.8}, {CPU: 1, Busy: 0.25}}
	if len(got) != len(want) {
		t.Fatalf("busy shares %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].CPU != want[i].CPU || got[i].Busy < want[i].Busy-1e-9 || got[i].Busy > want[i].Busy+1e-9 {
			t.Errorf("busy share %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if got := busyShares(a, a); len(got) != 0 {
		t.Errorf("no ticks elapsed: %+v, want none", got)
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
	probes := map[string]*ProbeStats{"ilp": n.ILP, "chase": n.Chase, "stream": n.Stream}
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
