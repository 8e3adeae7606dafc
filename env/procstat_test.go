package env

import (
	"reflect"
	"strings"
	"testing"
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

func TestParseCPUStat(t *testing.T) {
	st, err := parseCPUStat(procStatText)
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
			if _, err := parseCPUStat(tc.text); err == nil || !strings.HasPrefix(err.Error(), "env: /proc/stat: ") {
				t.Errorf("error %v, want one starting env: /proc/stat:", err)
			}
		})
	}
}

func TestCPUStatBusy(t *testing.T) {
	a, err := parseCPUStat(procStatText)
	if err != nil {
		t.Fatal(err)
	}
	// 100 ticks later: cpu0 was busy 80 of them, cpu1 25 (20 idle, 5
	// iowait counted as idle: 75 idle); cpu3 appeared (hot-plugged) and
	// has no earlier reading.
	b, err := parseCPUStat(`cpu  1105 10 500 8095 100 20 30 40 0 0
cpu0 680 5 300 3920 50 10 15 20 0 0
cpu1 425 5 200 4170 55 10 15 20 0 0
cpu3 9 0 0 9 0 0 0 0 0 0
`)
	if err != nil {
		t.Fatal(err)
	}
	got := b.Busy(a)
	want := []CPUBusy{{CPU: 0, Busy: 0.8}, {CPU: 1, Busy: 0.25}}
	if len(got) != len(want) {
		t.Fatalf("busy shares %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].CPU != want[i].CPU || got[i].Busy < want[i].Busy-1e-9 || got[i].Busy > want[i].Busy+1e-9 {
			t.Errorf("busy share %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if got := a.Busy(a); len(got) != 0 {
		t.Errorf("no ticks elapsed: %+v, want none", got)
	}
}

func TestCPUStatSteal(t *testing.T) {
	a, err := parseCPUStat(procStatText)
	if err != nil {
		t.Fatal(err)
	}
	// 200 ticks later, 10 of them steal (the eighth field, 40 -> 50).
	b, err := parseCPUStat("cpu  1100 10 560 8030 100 20 30 50 0 0\n")
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := b.Steal(a); !ok || got < 0.05-1e-9 || got > 0.05+1e-9 {
		t.Errorf("Steal = %v, %v; want 0.05, true", got, ok)
	}
	if _, ok := a.Steal(a); ok {
		t.Error("Steal with no ticks elapsed: ok")
	}
}
