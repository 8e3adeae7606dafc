package bench

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/stats"
)

// Noise describes how steady the machine was during a run, measured with
// a fixed calibration loop (integer arithmetic only: no memory traffic,
// allocation or system call) timed between rounds of samples. Its iteration
// count is set once at the start to take about one sample's Benchtime, so
// its timings suffer the same disturbances as a sample. Field names in
// JSON follow docs/reference.md, "JSON documents".
type Noise struct {
	// Probes is the number of timings of the calibration loop.
	Probes int `json:"probes"`
	// ProbeNs is their median, in ns.
	ProbeNs float64 `json:"probe_ns"`
	// Iterations is the calibration loop's iteration count per timing,
	// doubled from 1 until one timing filled Benchtime, so two runs may
	// time different amounts of work (a factor of 2 apart on the same
	// machine and Benchtime); ProbeNs/Iterations, the time of one
	// iteration, is what compares across runs. 0 in documents from before
	// it was recorded.
	Iterations int `json:"iterations,omitempty"`
	// Spread is their interquartile range over their median (0.06 is 6%):
	// how far apart two timings of the same work typically are.
	Spread float64 `json:"spread"`
	// Drift is the median of the last third of the timings minus that of
	// the first third, over the overall median: positive when the machine
	// got slower during the run.
	Drift float64 `json:"drift"`
	// Steal is the share of all CPU time that /proc/stat counted as steal
	// (time a hypervisor gave to other guests) during the sampling, in
	// [0,1]; absent where /proc/stat is unreadable.
	Steal *float64 `json:"steal,omitempty"`

	// ILP, Chase and Stream are the other probes of the meter, each timed
	// beside the calibration loop (see ProbeStats): eight independent
	// multiply chains, which a busy hyperthread sibling slows; a pointer
	// chase over an 8 MiB random cycle, which cache and memory neighbours
	// slow; a sequential sum over the same buffer (memory bandwidth).
	// Absent in documents written before they existed.
	ILP    *ProbeStats `json:"ilp,omitempty"`
	Chase  *ProbeStats `json:"chase,omitempty"`
	Stream *ProbeStats `json:"stream,omitempty"`
	// CPUBusy is each CPU's share of the sampling's wall time that
	// /proc/stat did not count as idle or iowait, in [0,1], by CPU number.
	CPUBusy []CPUBusy `json:"cpu_busy,omitempty"`
	// OwnCPUs is this process's CPU time (user plus system, all threads)
	// over the sampling's wall time, in CPUs: 1.2 means serbench kept 1.2
	// CPUs busy on average, so the sum of CPUBusy minus OwnCPUs is what
	// everything else on the machine used.
	OwnCPUs *float64 `json:"own_cpus,omitempty"`
	// CoreSharing is the start-up check of whether two CPUs share a
	// physical core (see CheckCoreSharing); absent where it could not run.
	CoreSharing *CoreSharing `json:"core_sharing,omitempty"`
	// Unreadable names each figure above that could not be measured, with
	// why (no /proc/stat, no affinity outside Linux, one CPU, ...). The
	// run goes on without it.
	Unreadable []string `json:"unreadable,omitempty"`
}

// ProbeStats summarizes the timings of one probe of the noise meter, as
// Noise does for the calibration loop.
type ProbeStats struct {
	// Probes is the number of timings.
	Probes int `json:"probes"`
	// ProbeNs is their median and MinNs their minimum, in ns. Noise only
	// adds time, so the minimum estimates the undisturbed machine (Chen
	// and Revels, "Robust benchmarking in noisy environments", 2016).
	ProbeNs float64 `json:"probe_ns"`
	MinNs   float64 `json:"min_ns"`
	// Spread is their interquartile range over their median and Drift
	// the median of the last third minus the first third over the median,
	// as for Noise.
	Spread float64 `json:"spread"`
	Drift  float64 `json:"drift"`
}

// CPUBusy is one CPU's busy share in Noise.CPUBusy.
type CPUBusy struct {
	// CPU is the number of the cpuN line of /proc/stat.
	CPU int `json:"cpu"`
	// Busy is the share of the CPU's time not counted as idle or iowait
	// between the meter's start and stop, in [0,1].
	Busy float64 `json:"busy"`
}

// noiseProbes is the number of timings of each probe per call of
// noiseMeter.probe.
const noiseProbes = 3

// extraProbeTime is what one timing of each of the ilp, chase and stream
// probes takes, set once in noiseMeter.start: 9 ms per noiseMeter.probe
// for the three, beside the calibration loop's 3 Benchtimes.
const extraProbeTime = time.Millisecond

// noiseMeter times the calibration loop and the other probes.
type noiseMeter struct {
	iters  int
	ns     []float64
	target time.Duration

	// the other probes: iteration counts and timings
	ilpIters, chaseIters, streamIters int
	ilpNs, chaseNs, streamNs          []float64
	buf                               []uint32 // chase and stream
	release                           func()   // unmaps buf

	stat0   procStat
	stat0OK bool
	wall0   time.Time
	cpu0    time.Duration
	cpu0OK  bool

	steal       *float64
	cpuBusy     []CPUBusy
	ownCPUs     *float64
	coreSharing *CoreSharing
	unreadable  []string
}

func newNoiseMeter(target time.Duration) *noiseMeter { return &noiseMeter{target: target} }

// noiseSink keeps the calibration loop's result alive: it is only written,
// so that the compiler cannot drop the loop.
//
//lint:ignore U1000 written, never read, on purpose (see above)
var noiseSink uint64

// spin runs the calibration loop for n iterations: a xorshift generator.
func spin(n int) uint64 {
	x := uint64(88172645463325252)
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

func (m *noiseMeter) start() {
	if cpus, err := allowedCPUs(); err != nil || len(cpus) >= 2 {
		cs, err := CheckCoreSharing()
		if err != nil {
			m.unreadable = append(m.unreadable, "core sharing: "+err.Error())
		}
		m.coreSharing = cs
	} else {
		m.unreadable = append(m.unreadable, "core sharing: this process may use one CPU")
	}
	m.iters = calibrateIters(m.target, 1, spin)
	m.ilpIters = calibrateIters(extraProbeTime, probeTries, ilp)
	buf, release, err := probeBuffer(probeBufBytes / 4)
	if err != nil {
		m.unreadable = append(m.unreadable, "pointer chase and stream: "+err.Error())
	} else {
		m.buf, m.release = buf, release
		fillCycle(m.buf)
		m.chaseIters = calibrateIters(extraProbeTime, probeTries, func(n int) uint64 { return chase(m.buf, n) })
		m.streamIters = calibrateIters(extraProbeTime, probeTries, func(n int) uint64 { return stream(m.buf, n) })
	}
	var serr error
	m.stat0, serr = readProcStat()
	m.stat0OK = serr == nil
	if serr != nil {
		m.unreadable = append(m.unreadable, "steal and per-CPU busy time: "+serr.Error())
	}
	m.wall0 = time.Now()
	m.cpu0, err = processCPUTime()
	m.cpu0OK = err == nil
	if err != nil {
		m.unreadable = append(m.unreadable, "own CPU time: "+err.Error())
	}
}

// timed appends the duration of run() to *dst, in ns.
func timed(dst *[]float64, run func() uint64) {
	t := time.Now()
	noiseSink += run()
	*dst = append(*dst, float64(time.Since(t).Nanoseconds()))
}

func (m *noiseMeter) probe() {
	for range noiseProbes {
		timed(&m.ns, func() uint64 { return spin(m.iters) })
		timed(&m.ilpNs, func() uint64 { return ilp(m.ilpIters) })
		if m.buf != nil {
			// stream first: it reads the whole buffer, so the chase starts
			// from the cache state the probe had before, not from what
			// the last round of samples left.
			timed(&m.streamNs, func() uint64 { return stream(m.buf, m.streamIters) })
			timed(&m.chaseNs, func() uint64 { return chase(m.buf, m.chaseIters) })
		}
	}
}

func (m *noiseMeter) stop() {
	if m.release != nil {
		m.release()
		m.buf, m.release = nil, nil
	}
	wall := time.Since(m.wall0)
	if m.cpu0OK && wall > 0 {
		if c, err := processCPUTime(); err == nil {
			own := float64(c-m.cpu0) / float64(wall)
			m.ownCPUs = &own
		}
	}
	if !m.stat0OK {
		return
	}
	t1, err := readProcStat()
	if err != nil {
		m.unreadable = append(m.unreadable, "steal and per-CPU busy time: "+err.Error())
		return
	}
	if total := t1.all.total - m.stat0.all.total; total > 0 {
		st := float64(t1.all.steal-m.stat0.all.steal) / float64(total)
		m.steal = &st
	}
	m.cpuBusy = busyShares(m.stat0, t1)
}

func (m *noiseMeter) result() Noise {
	n := Noise{Probes: len(m.ns), Iterations: m.iters, Steal: m.steal, CPUBusy: m.cpuBusy, OwnCPUs: m.ownCPUs,
		CoreSharing: m.coreSharing, Unreadable: m.unreadable}
	if len(m.ns) == 0 {
		return n
	}
	s := probeStats(m.ns)
	n.ProbeNs, n.Spread, n.Drift = s.ProbeNs, s.Spread, s.Drift
	n.ILP = summarizeIfAny(m.ilpNs)
	n.Chase = summarizeIfAny(m.chaseNs)
	n.Stream = summarizeIfAny(m.streamNs)
	return n
}

// probeStats computes the figures of ProbeStats from timings (not empty).
func probeStats(ns []float64) ProbeStats {
	med := stats.Quantile(ns, 0.5)
	s := ProbeStats{Probes: len(ns), ProbeNs: med, MinNs: stats.Quantile(ns, 0)}
	if med > 0 {
		s.Spread = (stats.Quantile(ns, 0.75) - stats.Quantile(ns, 0.25)) / med
		if k := len(ns) / 3; k > 0 {
			s.Drift = (stats.Quantile(ns[len(ns)-k:], 0.5) - stats.Quantile(ns[:k], 0.5)) / med
		}
	}
	return s
}

// summarizeIfAny is probeStats, or nil for no timings.
func summarizeIfAny(ns []float64) *ProbeStats {
	if len(ns) == 0 {
		return nil
	}
	s := probeStats(ns)
	return &s
}

// cpuTicks are the figures of one cpu line of /proc/stat, in clock ticks.
type cpuTicks struct{ total, idle, steal uint64 }

// procStat is what readProcStat reads: the aggregate cpu line and the
// cpuN lines by N.
type procStat struct {
	all    cpuTicks
	perCPU map[int]cpuTicks
}

// readProcStat reads /proc/stat (see parseProcStat).
func readProcStat() (procStat, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return procStat{}, fmt.Errorf("bench: %w", err)
	}
	return parseProcStat(string(b))
}

// parseProcStat reads the cpu lines of /proc/stat text, per proc(5):
// fields 1..8 of each are user nice system idle iowait irq softirq steal
// (guest and guest_nice are already counted in user and nice). total sums
// the eight, idle is idle plus iowait. The aggregate "cpu" line must be
// there; a cpuN line that is short or not numeric is skipped (its CPU is
// then missing from perCPU), as are lines of other kinds.
func parseProcStat(text string) (procStat, error) {
	st := procStat{perCPU: map[int]cpuTicks{}}
	haveAll := false
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], "cpu") {
			continue
		}
		t, ok := parseCPUTicks(f)
		if f[0] == "cpu" {
			if !ok {
				return procStat{}, fmt.Errorf("bench: /proc/stat: unreadable cpu line %q", strings.TrimSpace(line))
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
		return procStat{}, fmt.Errorf("bench: /proc/stat: no cpu line")
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

// busyShares is each CPU's busy share between two readings, for the CPUs
// both list, by CPU number. A CPU whose counters did not advance (offline)
// is left out.
func busyShares(a, b procStat) []CPUBusy {
	var out []CPUBusy
	for n, t1 := range b.perCPU {
		t0, ok := a.perCPU[n]
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

// Thresholds of Noise.Advice.
const (
	// StealLimit is the share of steal time above which Advice says the
	// machine is oversubscribed by its hypervisor.
	StealLimit = 0.02
	// medianHalfWidthFactor turns the calibration loop's spread (IQR over
	// median) into the 95% half-width of a cell's median of n samples,
	// times sqrt(n). For independent normal samples it would be 1.82
	// (1.96 * sqrt(pi/2) / 1.349); measured on the shared 2-core machine of
	// docs/findings/measurement.md it was 5.5 (default run: median half-width 4.9% with 66
	// samples at a 7.2% spread) and 6.7 (13.4% with 99 samples at 20%):
	// samples there are heavy-tailed and correlated in time. 6 is used.
	medianHalfWidthFactor = 6.0
)

// SamplesNeeded is the number of samples per cell at which a median's 95%
// interval is expected to reach ±target when samples spread like the
// calibration loop (see medianHalfWidthFactor: an estimate from measured
// runs, not a guarantee). 0 when target or the spread is not positive.
func (n Noise) SamplesNeeded(target float64) int {
	if target <= 0 || n.Spread <= 0 {
		return 0
	}
	k := medianHalfWidthFactor * n.Spread / target
	return int(math.Ceil(k * k))
}

// Advice returns a warning for each way the noise exceeds what target
// needs, with the remedy that fits, or nil when it does not. perCell is
// the mean number of samples each cell got (0 when unknown). The warnings
// are sentences without a trailing newline.
func (n Noise) Advice(target, perCell float64) []string {
	var out []string
	if n.Probes == 0 || target <= 0 {
		return nil
	}
	if need := n.SamplesNeeded(target); perCell > 0 && float64(need) > perCell {
		out = append(out, fmt.Sprintf("machine noise: the calibration loop spread %.1f%% (IQR/median), so a ±%.0f%% interval needs about %d samples per cell and this run averaged %.0f: give it more time (-max-time), pin it (-pin) or use a quieter machine",
			100*n.Spread, 100*target, need, perCell))
	}
	if math.Abs(n.Drift) > target {
		out = append(out, fmt.Sprintf("machine noise: the calibration loop drifted %+.1f%% from the first third of the run to the last, more than the ±%.0f%% target: the machine's load changed during the run; compare codecs within one run only, or use a quieter machine",
			100*n.Drift, 100*target))
	}
	if n.Steal != nil && *n.Steal > StealLimit {
		out = append(out, fmt.Sprintf("machine noise: %.1f%% of CPU time was stolen by the hypervisor (/proc/stat steal): a virtual machine sharing its host; use a dedicated or quieter machine",
			100**n.Steal))
	}
	if c := n.CoreSharing; c != nil && c.Shared {
		if others, ok := n.OthersCPUs(); ok && others > OthersLimit {
			out = append(out, fmt.Sprintf("machine noise: %s, and besides serbench's own threads the machine kept %.2f CPUs busy during the run: whatever ran beside a sample on the sibling slowed it, throughput-heavy codecs most; compare codecs within one run only, or use a quieter machine",
				c.Verdict(), others))
		}
	}
	return out
}

// OthersLimit is the CPU time, in CPUs, that processes other than serbench
// may use during a run on a machine whose CPUs share a core before Advice
// warns: 0.1, a tenth of one CPU.
const OthersLimit = 0.1

// OthersCPUs is the CPU time that everything but this process used during
// the sampling, in CPUs (the sum of CPUBusy minus OwnCPUs, at least 0);
// false when either is missing.
func (n Noise) OthersCPUs() (float64, bool) {
	if len(n.CPUBusy) == 0 || n.OwnCPUs == nil {
		return 0, false
	}
	var sum float64
	for _, c := range n.CPUBusy {
		sum += c.Busy
	}
	return max(sum-*n.OwnCPUs, 0), true
}
