package report

import (
	"fmt"
	"strings"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
)

// samplingLegend explains the ns/op column: fixed or adaptive sampling,
// and how many cells missed the target.
func samplingLegend(doc *results.Run) string {
	if doc.Target <= 0 {
		return fmt.Sprintf("ns/op: median of %d samples ± half-width of its 95%% confidence interval (none with fewer than 6 samples).\n", doc.Count)
	}
	timed, missed, capped, lo, hi := 0, 0, 0, 0, 0
	for _, r := range doc.Results {
		if !r.Timed() {
			continue
		}
		n := len(r.Samples)
		if timed == 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
		timed++
		if r.TargetMissed {
			missed++
			if n >= bench.MaxCount {
				capped++
			}
		}
	}
	why := ""
	switch {
	case missed > 0 && capped == missed:
		why = fmt.Sprintf(": each reached %d samples", bench.MaxCount)
	case missed > 0 && capped > 0:
		why = fmt.Sprintf(": %d reached %d samples, the others ran out of -max-time", capped, bench.MaxCount)
	case missed > 0:
		why = ": -max-time ran out first; a longer -max-time, a quieter machine or -target 5% narrows them"
	}
	return fmt.Sprintf("ns/op: median ± half-width of its 95%% confidence interval; adaptive sampling to ±%s (the speed-up's interval on cells paired with %s, ns/op's on the others): %d to %d samples per cell; %s = target missed (%d of %d cells%s).\n",
		pct(doc.Target), doc.Baseline, lo, hi, MissedMark[1:], missed, timed, why)
}

// noiseLine summarizes the machine's noise for the report header, or ""
// when it was not measured.
func noiseLine(n *env.Noise) string {
	if n == nil || n.Probes == 0 {
		return ""
	}
	s := fmt.Sprintf("machine noise: calibration loop spread %.1f%% (IQR/median of %d timings of %s), drift %+.1f%%", 100*n.Spread, n.Probes, document.Ns(n.ProbeNs), 100*n.Drift)
	if n.Steal != nil {
		s += fmt.Sprintf(", steal %.1f%%", 100**n.Steal)
	}
	var probes []string
	for _, p := range []struct {
		name string
		st   *env.ProbeStats
	}{{"ILP probe", n.ILP}, {"pointer chase", n.Chase}, {"stream", n.Stream}} {
		if p.st != nil && p.st.Probes > 0 {
			probes = append(probes, fmt.Sprintf("%s spread %.1f%%", p.name, 100*p.st.Spread))
		}
	}
	if len(probes) > 0 {
		s += ", " + strings.Join(probes, ", ")
	}
	if len(n.CPUBusy) > 0 {
		busy := make([]string, len(n.CPUBusy))
		for i, c := range n.CPUBusy {
			busy[i] = fmt.Sprintf("CPU %d %.0f%%", c.CPU, 100*c.Busy)
		}
		s += "; busy during sampling: " + strings.Join(busy, ", ")
		if n.OwnCPUs != nil {
			s += fmt.Sprintf(" (serbench's own threads %.2f CPUs of it)", *n.OwnCPUs)
		}
	}
	if c := n.CoreSharing; c != nil {
		if c.Unsure {
			s += fmt.Sprintf("; core sharing of CPUs %d and %d unclear (the check's rounds disagree: other work ran during it)", c.CPU, c.Neighbour)
		} else if c.Shared {
			s += fmt.Sprintf("; CPUs %d and %d share a core (a busy neighbour slows the ILP probe by %d%%)", c.CPU, c.Neighbour, c.SlowdownPercent())
		} else {
			s += fmt.Sprintf("; CPUs %d and %d do not appear to share a core (a busy neighbour: %+d%% on the ILP probe)", c.CPU, c.Neighbour, c.SlowdownPercent())
		}
	}
	return s
}

// liveHeapLine states the GC condition of a run (-live-heap) for the
// report header, or "" when the run did not record it.
func liveHeapLine(h *env.LiveHeap) string {
	if h == nil {
		return ""
	}
	mib := func(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
	cond := "no ballast"
	if h.TargetBytes > 0 {
		cond = "raised to " + mib(h.TargetBytes) + " with a ballast"
	}
	return fmt.Sprintf("GC condition: live heap %s before timing (-live-heap: %s; serbench's own %s)", mib(h.LiveHeapBytes), cond, mib(h.OwnBytes))
}

// pct prints a fraction as a percentage without needless digits: 3%, 2.5%.
func pct(f float64) string {
	return fmt.Sprintf("%g%%", float64(int(f*1000+0.5))/10)
}
