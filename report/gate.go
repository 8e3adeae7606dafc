package report

import (
	"fmt"
	"strconv"
	"strings"
)

// Regression is one cell of a comparison that got worse by more than a
// gate's threshold (see Regressions).
type Regression struct {
	Cell
	// Metric is "speed-up" (over the run's baseline), "normalised ns/op"
	// (the new run's rescaled to the old run's machine speed by the
	// calibration loop, see BasisMeter), "ns/op", "B/op", "allocs/op",
	// "size" (encoded bytes) or "ok" (the cell round-tripped exactly in the
	// old run and not in the new one).
	Metric string `json:"metric"`
	// Old and New are the medians (the sizes for "size"; 1 and 0 for "ok").
	Old float64 `json:"old"`
	New float64 `json:"new"`
	// Change is how much worse the cell got (0.2 is 20% worse): New over
	// Old minus 1, but Old over New minus 1 for a speed-up.
	Change float64 `json:"change"`
	// Q is the corrected p-value of the change (see Correction); 0 for
	// "size" and "ok", which are single values that need no test.
	Q float64 `json:"q,omitempty"`
}

// String is the line serbench compare -max-regression prints for r.
func (r Regression) String() string {
	cell := fmt.Sprintf("codec=%s scenario=%s op=%s", r.Codec, r.Scenario, r.Op)
	if r.Metric == "ok" {
		return cell + ": no longer round-trips exactly"
	}
	if r.Metric == "speed-up" || r.Metric == "ratio to the baseline's marshal" {
		// The speed-up fell: print it as it is, and the change as time.
		s := fmt.Sprintf("%s: %s %.2f× → %.2f× (%+.1f%% time relative to the baseline", cell, r.Metric, r.Old, r.New, 100*r.Change)
		if r.Q > 0 {
			s += fmt.Sprintf(", q=%.2g", r.Q)
		}
		return s + ")"
	}
	s := fmt.Sprintf("%s: %s %+.1f%% (%s → %s", cell, r.Metric, 100*r.Change, num(r.Old), num(r.New))
	if r.Q > 0 {
		s += fmt.Sprintf(", q=%.2g", r.Q)
	}
	return s + ")"
}

// Regressions returns the cells of c that got worse by more than max (a
// fraction: 0.05 is 5%), in row order. A cell's time regresses, by the
// measure it was compared by (CompareRow.Basis: its speed-up over the
// baseline, or its ns/op), when all three hold: its change is significant
// after the correction (Q <= Alpha), it exceeds max (CompareRow.Change:
// positive is worse), and it is outside the noise band (OutsideNoise:
// the new 95% interval lies wholly on the worse side of the old one, when
// both runs recorded intervals). B/op and allocs/op regress when their
// change is significant and above max (only when both runs carry
// per-sample figures); the encoded size when it grew by more than max
// (one exact value, no test); and a cell that round-tripped exactly in the
// old run but not in the new one regresses whatever max. The baseline's
// own cells do not regress by time when c is compared by speed-up: no
// figure within a run separates their change from the machine's (the
// calibration loop that normalises their ns/op follows the machine only
// roughly: with five builds beside the runs it read +127% on identical
// code, docs/findings/noisy.md); the table still shows and tests them, and
// their B/op, allocs/op, size and round trip gate as every cell's. A
// negative max is an error.
func Regressions(c *Comparison, max float64) ([]Regression, error) {
	if !(max >= 0) {
		return nil, fmt.Errorf("report: invalid regression threshold %v (want >= 0)", max)
	}
	var out []Regression
	for _, r := range c.Rows {
		if r.Old.OK && !r.New.OK && !r.New.NA {
			out = append(out, Regression{Cell: r.Cell, Metric: "ok", Old: 1, New: 0, Change: -1})
			continue
		}
		if !r.Compared {
			continue
		}
		baseTime := c.By == BySpeedup && r.Codec == c.Baseline
		if r.Significant && r.Change > max && r.OutsideNoise && !baseTime {
			out = append(out, Regression{Cell: r.Cell, Metric: basisMetric[r.Basis], Old: r.OldValue, New: r.NewValue, Change: r.Change, Q: r.Q})
		}
		for _, m := range []struct {
			name     string
			ch       *MetricChange
			old, new int64
		}{{"B/op", r.Bytes, r.Old.BytesPerOp, r.New.BytesPerOp}, {"allocs/op", r.Allocs, r.Old.AllocsPerOp, r.New.AllocsPerOp}} {
			if m.ch != nil && m.ch.Significant && m.ch.Change > max {
				out = append(out, Regression{Cell: r.Cell, Metric: m.name, Old: float64(m.old), New: float64(m.new), Change: m.ch.Change, Q: m.ch.Q})
			}
		}
		if r.Old.SizeBytes > 0 && float64(r.New.SizeBytes) > float64(r.Old.SizeBytes)*(1+max) {
			out = append(out, Regression{Cell: r.Cell, Metric: "size", Old: float64(r.Old.SizeBytes), New: float64(r.New.SizeBytes),
				Change: float64(r.New.SizeBytes)/float64(r.Old.SizeBytes) - 1})
		}
	}
	return out, nil
}

// basisMetric names the Metric of a time regression by its row's Basis.
var basisMetric = map[string]string{BasisPairs: "speed-up", BasisRounds: "speed-up", BasisRuns: "speed-up", BasisMeter: "normalised ns/op", BasisRunsNs: "ns/op per run", BasisRunsRef: "ratio to the baseline's marshal", BasisNs: "ns/op"}

// ParseThreshold reads a regression threshold written as a percentage
// ("5%", "0.5%") or a fraction ("0.05") and returns the fraction. Empty,
// negative or non-numeric text is an error.
func ParseThreshold(s string) (float64, error) {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	v, err := strconv.ParseFloat(strings.TrimSuffix(t, "%"), 64)
	if err != nil || !(v >= 0) {
		return 0, fmt.Errorf("report: invalid threshold %q (want a percentage such as 5%% or a fraction such as 0.05)", s)
	}
	if pct {
		v /= 100
	}
	return v, nil
}
