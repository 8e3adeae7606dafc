package ab

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/serbench/serbench/document"
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
//     slower at head), the median whether or not it is significant, with
//     its 95% interval when there are enough rounds for one;
//   - "latency-resolution": the smallest change of time the run resolves,
//     in percent: the interval's larger half-width around the change
//     (verdict.Judgement.Resolution), when there is an interval.
//
// The slugs are package document's (document.BMFLatency, ...). With
// MeasureInstructions, "instructions" (BMFInstructions: head's median
// instructions/op),
// "instructions-change" (BMFInstructionsChange: as "latency-change", with
// the range over the rounds as bounds) and "instructions-resolution"
// stand in for "latency", "latency-change" and "latency-resolution".
func BMF(res *Result) document.BMF {
	out := document.BMF{}
	for _, b := range res.Benchmarks {
		if len(b.Ratios) == 0 {
			continue
		}
		if b.Measure == MeasureInstructions {
			out[b.Name] = instructionsBMF(b)
			continue
		}
		m := map[string]document.BMFMetric{document.BMFLatency: {Value: b.HeadNs}}
		if b.HeadNsLo > 0 && b.HeadNsHi > 0 {
			m[document.BMFLatency] = bounded(b.HeadNs, b.HeadNsLo, b.HeadNsHi)
		}
		if b.Mem {
			m[document.BMFBytesPerOp] = document.BMFMetric{Value: b.HeadBytes}
			m[document.BMFAllocsPerOp] = document.BMFMetric{Value: b.HeadAllocs}
		}
		changeBMF(m, b, document.BMFChange, BMFResolution)
		out[b.Name] = m
	}
	return out
}

// Measure slugs of BMF with MeasureInstructions. "instructions" is
// Bencher's own measure of instruction counts.
const (
	BMFInstructions           = "instructions"
	BMFInstructionsChange     = "instructions-change"
	BMFInstructionsResolution = "instructions-resolution"
)

// BMFResolution is the slug of the smallest change of time a run
// resolves, in percent (see BMF).
const BMFResolution = "latency-resolution"

func instructionsBMF(b Benchmark) map[string]document.BMFMetric {
	m := map[string]document.BMFMetric{BMFInstructions: {Value: b.HeadInstructions}}
	if b.Mem {
		m[document.BMFBytesPerOp] = document.BMFMetric{Value: b.HeadBytes}
		m[document.BMFAllocsPerOp] = document.BMFMetric{Value: b.HeadAllocs}
	}
	changeBMF(m, b, BMFInstructionsChange, BMFInstructionsResolution)
	return m
}

// changeBMF sets b's change (slug change) and, with an interval, the
// change it resolves (slug resolution) in m, in percent.
func changeBMF(m map[string]document.BMFMetric, b Benchmark, change, resolution string) {
	m[change] = document.BMFMetric{Value: 100 * b.Change()}
	if lo, hi, ok := b.ChangeInterval(); ok {
		m[change] = bounded(100*b.Change(), 100*lo, 100*hi)
		m[resolution] = document.BMFMetric{Value: 100 * max(hi-b.Change(), b.Change()-lo)}
	}
}

func bounded(v, lo, hi float64) document.BMFMetric {
	return document.BMFMetric{Value: v, Lower: &lo, Upper: &hi}
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
