package bench

import (
	"time"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/stats"
)

// noiseProbes is the number of timings of each probe per call of
// noiseMeter.probe.
const noiseProbes = 3

// extraProbeTime is what one timing of each of the ilp, chase and stream
// probes takes, set once in noiseMeter.start: 9 ms per noiseMeter.probe
// for the three, beside the calibration loop's 3 Benchtimes.
const extraProbeTime = time.Millisecond

// noiseMeter measures a run's env.Noise (see there for what each figure
// means): it times the calibration loop and the other probes between
// rounds of samples, and reads /proc/stat and the process's CPU time at
// its start and stop.
type noiseMeter struct {
	iters  int
	ns     []float64
	target time.Duration

	// the other probes: iteration counts and timings
	ilpIters, chaseIters, streamIters int
	ilpNs, chaseNs, streamNs          []float64
	buf                               []uint32 // chase and stream
	release                           func()   // unmaps buf

	stat0   env.CPUStat
	stat0OK bool
	wall0   time.Time
	cpu0    time.Duration
	cpu0OK  bool

	steal       *float64
	cpuBusy     []env.CPUBusy
	ownCPUs     *float64
	coreSharing *env.CoreSharing
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
	m.stat0, serr = env.ReadCPUStat()
	m.stat0OK = serr == nil
	if serr != nil {
		m.unreadable = append(m.unreadable, "steal and per-CPU busy time: "+serr.Error())
	}
	m.wall0 = time.Now()
	u, err := env.ProcessUsage()
	m.cpu0, m.cpu0OK = u.CPU(), err == nil
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
		if u, err := env.ProcessUsage(); err == nil {
			own := float64(u.CPU()-m.cpu0) / float64(wall)
			m.ownCPUs = &own
		}
	}
	if !m.stat0OK {
		return
	}
	t1, err := env.ReadCPUStat()
	if err != nil {
		m.unreadable = append(m.unreadable, "steal and per-CPU busy time: "+err.Error())
		return
	}
	if st, ok := t1.Steal(m.stat0); ok {
		m.steal = &st
	}
	m.cpuBusy = t1.Busy(m.stat0)
}

func (m *noiseMeter) result() env.Noise {
	n := env.Noise{Probes: len(m.ns), Iterations: m.iters, Steal: m.steal, CPUBusy: m.cpuBusy, OwnCPUs: m.ownCPUs,
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

// probeStats computes the figures of env.ProbeStats from timings (not
// empty).
func probeStats(ns []float64) env.ProbeStats {
	med := stats.Quantile(ns, 0.5)
	s := env.ProbeStats{Probes: len(ns), ProbeNs: med, MinNs: stats.Quantile(ns, 0)}
	if med > 0 {
		s.Spread = (stats.Quantile(ns, 0.75) - stats.Quantile(ns, 0.25)) / med
		if k := len(ns) / 3; k > 0 {
			s.Drift = (stats.Quantile(ns[len(ns)-k:], 0.5) - stats.Quantile(ns[:k], 0.5)) / med
		}
	}
	return s
}

// summarizeIfAny is probeStats, or nil for no timings.
func summarizeIfAny(ns []float64) *env.ProbeStats {
	if len(ns) == 0 {
		return nil
	}
	s := probeStats(ns)
	return &s
}
