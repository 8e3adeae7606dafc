package ab

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/serbench/serbench/report"
)

// BMF returns res's head side in the Bencher Metric Format
// (https://bencher.dev/docs/reference/bencher-metric-format/: benchmark
// name → measure slug → {"value", "lower_value", "upper_value"}), for
// Bencher or another dashboard that tracks a branch over time. Each
// benchmark both sides ran in at least one common round is named as the
// testing package prints it ("Encode/size=small-8") and has the measures
//
//   - "latency": head's median ns/op, with its 95% interval over the
//     rounds as lower_value and upper_value when there are enough rounds
//     for one;
//   - "bytes-per-op" and "allocs-per-op": head's medians, when both sides
//     reported them (-benchmem);
//   - "latency-change": the change of time from base in percent (positive:
//     slower at head), with its 95% interval, or 0 without bounds when the
//     change is not significant after the correction, as
//     `serbench compare -format bmf` writes it.
//
// The slugs are report's (report.BMFLatency, ...). With
// MeasureInstructions, "instructions" (BMFInstructions: head's median
// instructions/op) and
// "instructions-change" (BMFInstructionsChange: as "latency-change", 0
// when not beyond the tolerance in every round) stand in for "latency"
// and "latency-change".
func BMF(res *Result) report.BMF {
	out := report.BMF{}
	for _, b := range res.Benchmarks {
		if len(b.Ratios) == 0 {
			continue
		}
		if b.Measure == MeasureInstructions {
			out[b.Name] = instructionsBMF(res, b)
			continue
		}
		m := map[string]report.BMFMetric{report.BMFLatency: {Value: b.HeadNs}}
		if b.HeadNsLo > 0 && b.HeadNsHi > 0 {
			m[report.BMFLatency] = bounded(b.HeadNs, b.HeadNsLo, b.HeadNsHi)
		}
		if b.Mem {
			m[report.BMFBytesPerOp] = report.BMFMetric{Value: b.HeadBytes}
			m[report.BMFAllocsPerOp] = report.BMFMetric{Value: b.HeadAllocs}
		}
		change := report.BMFMetric{}
		if b.Significant(res.Options.Alpha) {
			change.Value = 100 * b.Change()
			if lo, hi, ok := b.ChangeInterval(); ok {
				change = bounded(100*b.Change(), 100*lo, 100*hi)
			}
		}
		m[report.BMFChange] = change
		out[b.Name] = m
	}
	return out
}

// Measure slugs of BMF with MeasureInstructions. "instructions" is
// Bencher's own measure of instruction counts.
const (
	BMFInstructions       = "instructions"
	BMFInstructionsChange = "instructions-change"
)

func instructionsBMF(res *Result, b Benchmark) map[string]report.BMFMetric {
	m := map[string]report.BMFMetric{BMFInstructions: {Value: b.HeadInstructions}}
	if b.Mem {
		m[report.BMFBytesPerOp] = report.BMFMetric{Value: b.HeadBytes}
		m[report.BMFAllocsPerOp] = report.BMFMetric{Value: b.HeadAllocs}
	}
	change := report.BMFMetric{}
	if b.Significant(res.Options.Alpha) {
		lo, hi, _ := b.ChangeInterval()
		change = bounded(100*b.Change(), 100*lo, 100*hi)
	}
	m[BMFInstructionsChange] = change
	return m
}

func bounded(v, lo, hi float64) report.BMFMetric {
	return report.BMFMetric{Value: v, Lower: &lo, Upper: &hi}
}

// writeBMF writes BMF(res) as indented JSON, keys sorted.
func writeBMF(w io.Writer, res *Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(BMF(res)); err != nil {
		return fmt.Errorf("ab: write bmf: %w", err)
	}
	return nil
}
