package env

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

// cpuTicks are the figures of one cpu line of /proc/stat, in clock ticks.
type cpuTicks struct{ total, idle, steal uint64 }

// CPUStat is one reading of the machine's CPU time counters from
// /proc/stat: the aggregate cpu line and the cpuN lines by N. Two readings
// give the steal share (Steal) and each CPU's busy share (Busy) in
// between. The zero value holds no reading.
type CPUStat struct {
	all    cpuTicks
	perCPU map[int]cpuTicks
}

// ReadCPUStat reads /proc/stat (see parseCPUStat). Its errors start with
// "env: ": the file is missing outside Linux, or has no aggregate cpu line.
func ReadCPUStat() (CPUStat, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return CPUStat{}, fmt.Errorf("env: %w", err)
	}
	return parseCPUStat(string(b))
}

// parseCPUStat reads the cpu lines of /proc/stat text, per proc(5):
// fields 1..8 of each are user nice system idle iowait irq softirq steal
// (guest and guest_nice are already counted in user and nice). total sums
// the eight, idle is idle plus iowait. The aggregate "cpu" line must be
// there; a cpuN line that is short or not numeric is skipped (its CPU is
// then missing from perCPU), as are lines of other kinds.
func parseCPUStat(text string) (CPUStat, error) {
	st := CPUStat{perCPU: map[int]cpuTicks{}}
	haveAll := false
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], "cpu") {
			continue
		}
		t, ok := parseCPUTicks(f)
		if f[0] == "cpu" {
			if !ok {
				return CPUStat{}, fmt.Errorf("env: /proc/stat: unreadable cpu line %q", strings.TrimSpace(line))
			}
			st.all, haveAll = t, true
			continue
		}
		n, err := strconv.Atoi(f[0][len("cpu"):])
		if err != nil || n < 0 || !ok {
			continue
		}
		st.perCPU[n] = t
	}
	if !haveAll {
		return CPUStat{}, fmt.Errorf("env: /proc/stat: no cpu line")
	}
	return st, nil
}

// parseCPUTicks reads the fields of one cpu line.
func parseCPUTicks(f []string) (cpuTicks, bool) {
	if len(f) < 9 {
		return cpuTicks{}, false
	}
	var t cpuTicks
	for i := 1; i <= 8; i++ {
		v, err := strconv.ParseUint(f[i], 10, 64)
		if err != nil {
			return cpuTicks{}, false
		}
		t.total += v
		switch i {
		case 4, 5: // idle, iowait
			t.idle += v
		case 8:
			t.steal = v
		}
	}
	return t, true
}

// Steal is the share of all CPU time that /proc/stat counted as steal
// between the reading earlier and s, in [0,1]; false when no ticks
// elapsed in between.
func (s CPUStat) Steal(earlier CPUStat) (float64, bool) {
	if s.all.total <= earlier.all.total {
		return 0, false
	}
	return float64(s.all.steal-earlier.all.steal) / float64(s.all.total-earlier.all.total), true
}

// Busy is each CPU's busy share between the reading earlier and s, for
// the CPUs both list, by CPU number, in [0,1]. A CPU whose counters did not
// advance (offline) is left out.
func (s CPUStat) Busy(earlier CPUStat) []CPUBusy {
	var out []CPUBusy
	for n, t1 := range s.perCPU {
		t0, ok := earlier.perCPU[n]
		if !ok || t1.total <= t0.total || t1.idle < t0.idle {
			continue
		}
		total := float64(t1.total - t0.total)
		busy := 1 - float64(t1.idle-t0.idle)/total
		out = append(out, CPUBusy{CPU: n, Busy: min(max(busy, 0), 1)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].CPU < out[j].CPU })
	return out
}
