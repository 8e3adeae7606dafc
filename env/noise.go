package env

import (
	"fmt"
	"math"
)

// Noise describes how steady the machine was during a run, measured by the
// runner's noise meter (package bench) with a fixed calibration loop
// (integer arithmetic only: no memory traffic, allocation or system call)
// timed between rounds of samples. Its iteration count is set once at the
// start to take about one sample's Benchtime (bench.Options), so its
// timings suffer the same disturbances as a sample. Field names in JSON
// follow docs/reference.md, "JSON documents".
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
	// physical core (see bench.CheckCoreSharing); absent where it could not
	// run.
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
