package bench

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
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
}

// noiseProbes is the number of timings of the calibration loop per call of
// noiseMeter.probe.
const noiseProbes = 3

// noiseMeter times the calibration loop.
type noiseMeter struct {
	iters   int
	ns      []float64
	stat0   cpuTicks
	stat0OK bool
	steal   *float64
	target  time.Duration
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
	m.stat0, m.stat0OK = readCPUTicks()
	n := 1
	for {
		t := time.Now()
		noiseSink += spin(n)
		el := time.Since(t)
		if el >= m.target || n >= 1<<32 {
			m.iters = n
			return
		}
		n *= 2
	}
}

func (m *noiseMeter) probe() {
	for range noiseProbes {
		t := time.Now()
		noiseSink += spin(m.iters)
		m.ns = append(m.ns, float64(time.Since(t).Nanoseconds()))
	}
}

func (m *noiseMeter) stop() {
	if !m.stat0OK {
		return
	}
	t1, ok := readCPUTicks()
	if !ok {
		return
	}
	total := t1.total - m.stat0.total
	if total == 0 {
		return
	}
	st := float64(t1.steal-m.stat0.steal) / float64(total)
	m.steal = &st
}

func (m *noiseMeter) result() Noise {
	n := Noise{Probes: len(m.ns), Iterations: m.iters, Steal: m.steal}
	if len(m.ns) == 0 {
		return n
	}
	med := quantile(m.ns, 0.5)
	n.ProbeNs = med
	if med > 0 {
		n.Spread = (quantile(m.ns, 0.75) - quantile(m.ns, 0.25)) / med
		if k := len(m.ns) / 3; k > 0 {
			n.Drift = (quantile(m.ns[len(m.ns)-k:], 0.5) - quantile(m.ns[:k], 0.5)) / med
		}
	}
	return n
}

// quantile is the q-quantile of xs by linear interpolation (xs unchanged).
func quantile(xs []float64, q float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	pos := q * float64(len(s)-1)
	i := int(pos)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (pos-float64(i))*(s[i+1]-s[i])
}

type cpuTicks struct{ total, steal uint64 }

// readCPUTicks reads the aggregate "cpu" line of /proc/stat: the sum of
// all its fields and the 8th (steal), per proc(5).
func readCPUTicks() (cpuTicks, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return cpuTicks{}, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return cpuTicks{}, false
	}
	var t cpuTicks
	// Fields 1..8 are user nice system idle iowait irq softirq steal;
	// guest and guest_nice are already counted in user and nice.
	for i := 1; i <= 8; i++ {
		v, err := strconv.ParseUint(f[i], 10, 64)
		if err != nil {
			return cpuTicks{}, false
		}
		t.total += v
		if i == 8 {
			t.steal = v
		}
	}
	return t, true
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
	return out
}
