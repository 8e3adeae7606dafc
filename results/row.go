package results

import (
	"math"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/stats"
)

// Row is the outcome of one (codec, scenario, op) cell: what the runner
// measured, and the Derived figures the run's constructors add. Field
// names in JSON follow the serbench/v1 contract of docs/reference.md,
// "JSON documents".
type Row struct {
	Codec    string `json:"codec"`
	Scenario string `json:"scenario"`
	Op       string `json:"op"`
	// Engine is the codec's Info.Engine: the implementation that ran where
	// the library switches by platform; "" otherwise.
	Engine string `json:"engine,omitempty"`
	// NsPerOp is the median time per operation over the samples, in ns.
	NsPerOp float64 `json:"ns_per_op"`
	// NsPerOpLo and NsPerOpHi bound the 95% confidence interval of the
	// median (±Inf, written as 0, when there are too few samples).
	NsPerOpLo float64 `json:"ns_per_op_lo"`
	NsPerOpHi float64 `json:"ns_per_op_hi"`
	// MBPerS is encoded bytes processed per second, in units of 10^6 bytes,
	// as the testing package computes it. 0 for convert.
	MBPerS float64 `json:"mb_per_s"`
	// BytesPerOp and AllocsPerOp are heap bytes and allocations per
	// operation, as `go test -benchmem` reports them (medians).
	BytesPerOp  int64 `json:"bytes_per_op"`
	AllocsPerOp int64 `json:"allocs_per_op"`
	// SizeBytes is the length of the encoded value in bytes.
	SizeBytes int `json:"size_bytes"`
	// BytesPerElem is SizeBytes over the scenario's element count
	// (scenario.Scenario.Elements) for list workloads (annot/*); absent
	// for other scenarios and for convert.
	BytesPerElem float64 `json:"bytes_per_elem,omitempty"`
	// Derived holds the figures the row's samples and the run's other rows
	// imply (speed-ups, floor ratio, BytesOverJSON, modes); its JSON keys
	// are the row's own. The run's constructors fill it; everything else
	// on the row is measured.
	Derived
	// OK is true when the cell round-tripped exactly and was timed.
	OK bool `json:"ok"`
	// NA is true when the codec cannot do this cell at all; Error says why.
	NA bool `json:"na"`
	// Error holds the fidelity difference, the failure, or the n/a reason.
	Error string `json:"error"`
	// AliasesInput, on an unmarshal or parse row, is whether the decoded
	// value shares the input's memory: true when the alias probe
	// (codec.AliasesInput: unmarshal a copy, flip every bit of it, compare
	// again) saw the value change, and for a ZeroCopy view, which reads the
	// bytes in place by definition and is not probed (decoding overwritten
	// bytes through a view would read garbage offsets); false when the
	// value came through unchanged. Nil on other rows and where the round
	// trip failed, so nothing was probed.
	AliasesInput *bool `json:"aliases_input,omitempty"`
	// GCPer1kOps is garbage collections per 1,000 operations
	// (runtime/metrics /gc/cycles/total:gc-cycles), median over samples.
	GCPer1kOps float64 `json:"gc_per_1k_ops"`
	// GCPauseNsPerOp is stop-the-world GC pause time per operation, in ns
	// (runtime.MemStats.PauseTotalNs), median over samples.
	GCPauseNsPerOp float64 `json:"gc_pause_ns_per_op"`
	// PeakHeapBytes is the largest GC heap goal seen at the end of any sample
	// (runtime/metrics /gc/heap/goal:bytes): the heap size the runtime let
	// the process grow to before collecting, an upper estimate of peak heap.
	PeakHeapBytes int64 `json:"peak_heap_bytes"`
	// Parallel holds throughput with 1..GOMAXPROCS goroutines when
	// bench.Options.Parallel is set.
	Parallel []ParallelPoint `json:"parallel,omitempty"`
	// Samples holds ns/op of each sample, in the order taken.
	Samples []float64 `json:"samples"`
	// SampleBytes and SampleAllocs hold B/op and allocs/op of each sample,
	// in the order of Samples (absent in documents from before they were
	// recorded: readers fall back to the medians).
	SampleBytes  []float64 `json:"sample_bytes,omitempty"`
	SampleAllocs []float64 `json:"sample_allocs,omitempty"`
	// Iterations is the number of operations in each sample.
	Iterations int `json:"iterations"`
	// SamplesTaken is len(Samples): with adaptive sampling it differs
	// from cell to cell.
	SamplesTaken int `json:"samples_taken,omitempty"`
	// HalfWidth is the half-width of the 95% interval of the median as a
	// fraction of the median, the larger side (0.03 is ±3%); 0 when there
	// is no interval (fewer than 6 samples).
	HalfWidth float64 `json:"half_width,omitempty"`
	// TargetMissed is true, with adaptive sampling, when the cell was timed
	// but its HalfWidth is still above bench.Options.Target (or it has none).
	TargetMissed bool `json:"target_missed,omitempty"`
	// PairRatios holds, for a cell sampled in pairs with the baseline (see
	// package bench's paired sampling), one speed-up per pair: the baseline's ns/op in the
	// samples taken next to this cell's sample over this cell's ns/op, in
	// the order taken. Speedup, SpeedupLo and SpeedupHi then come from
	// these ratios (median and its 95% interval), so a change of machine
	// speed slower than one pair cancels. Absent on the baseline itself, on
	// cells with no baseline cell, and in older documents (which keep the
	// ratio of medians and its bootstrap).
	PairRatios []float64 `json:"pair_ratios,omitempty"`
	// CompressedBytes is, on a compression op ("compress:<id>",
	// "decompress:<id>"), the length of the codec's encoded value after
	// compression; SizeBytes stays the uncompressed length, and MB/s counts
	// uncompressed bytes on both ops.
	CompressedBytes int `json:"compressed_bytes,omitempty"`
	// CompressRatio is CompressedBytes over SizeBytes: 0.35 is 65% smaller.
	CompressRatio float64 `json:"compress_ratio,omitempty"`
	// SameBytes is true on a marshal cell whose output is byte for byte
	// the baseline codec's on the same scenario (a drop-in replacement's
	// wire format). It is measured, not Derived: it compares the encoded
	// bytes, which the runner holds and the run does not keep.
	SameBytes bool `json:"same_bytes,omitempty"`
	// Stream is set on the cells of a message corpus
	// (scenario.Scenario.Messages): ns/op and B/op are then per message,
	// SizeBytes (and CompressedBytes) the mean message size, and Stream
	// the distribution of sizes and the bytes of the whole stream.
	Stream *StreamSizes `json:"stream,omitempty"`
	// Processes holds each process's own figures of the cell when the run
	// was split over several processes (serbench run -processes, see
	// bench.MergeProcesses); the fields above then pool every process's
	// samples. Absent in a run of one process.
	Processes []ProcessFigures `json:"processes,omitempty"`
}

// ParallelPoint is throughput with a number of goroutines working at once.
type ParallelPoint struct {
	Goroutines int `json:"goroutines"`
	// NsPerOp is wall time divided by operations done by all goroutines.
	NsPerOp float64 `json:"ns_per_op"`
	// OpsPerS is operations per second across all goroutines.
	OpsPerS float64 `json:"ops_per_s"`
	// Scaling is OpsPerS divided by OpsPerS with one goroutine: 2 on two
	// cores is perfect scaling.
	Scaling float64 `json:"scaling"`
	// CPUNsPerOp is the process's CPU time (user + system, every thread:
	// the garbage collector's too) over the same window divided by the
	// operations: what an operation costs in CPU when that many run at
	// once, whether or not the cores were free to run them (a core taken
	// by another process lowers Scaling, not this). 0 where getrusage(2)
	// is not available, and in runs made before it was recorded.
	CPUNsPerOp float64 `json:"cpu_ns_per_op,omitempty"`
}

// Timed reports whether r carries measured figures.
func (r Row) Timed() bool { return len(r.Samples) > 0 }

// Outcome is the cell's round-trip status in the form every serbench
// document shares, derived from OK, NA and Timed (the serbench/v1 JSON
// keeps those fields): codec.NA when NA; codec.Kept when OK;
// codec.Changed when timed but not exact (Error holds the difference);
// codec.Failed otherwise (a step of the round trip failed, or the
// operation failed while timing, and nothing was timed).
func (r Row) Outcome() codec.Outcome {
	switch {
	case r.NA:
		return codec.NA
	case r.OK:
		return codec.Kept
	case r.Timed():
		return codec.Changed
	}
	return codec.Failed
}

// TargetHalfWidth is the half-width that adaptive sampling holds to its
// target, as a fraction: for a cell sampled in pairs with the baseline,
// the speed-up's (the larger side of the 95% interval of the median of
// PairRatios, over that median: Speedup and its interval); ns/op's
// (HalfWidth) for every other cell. ok is false when there is no interval
// yet.
func (r Row) TargetHalfWidth() (hw float64, ok bool) {
	if len(r.PairRatios) > 0 {
		return stats.RatioHalfWidth(stats.Summarize(r.PairRatios))
	}
	if r.NsPerOpLo == 0 || r.NsPerOpHi == 0 {
		return 0, false
	}
	return r.HalfWidth, true
}

// StreamSizes describes the messages of a message corpus
// (scenario.Scenario.Messages) as one codec encodes them: on marshal,
// unmarshal and parse cells the encoded sizes, on "compress:<id>" and
// "decompress:<id>" cells the compressed sizes. Sizes are in bytes;
// percentiles are nearest-rank over the messages.
type StreamSizes struct {
	// Messages is the number of messages in the stream.
	Messages int `json:"messages"`
	// P50, P99 and Max are the median, 99th percentile and largest
	// message size.
	P50 int `json:"size_p50"`
	P99 int `json:"size_p99"`
	Max int `json:"size_max"`
	// TotalBytes is the size of the whole stream: the sum over messages.
	TotalBytes int64 `json:"total_bytes"`
}

// MeanSize is TotalBytes over Messages, rounded to the nearest byte.
func (s *StreamSizes) MeanSize() int {
	return int(math.Round(float64(s.TotalBytes) / float64(s.Messages)))
}

// ProcessFigures are one process's figures of a cell, in a run split over
// several processes: the Row fields of the same name as that process
// measured them (medians over its samples; Speedup from its pairs).
type ProcessFigures struct {
	NsPerOp     float64 `json:"ns_per_op"`
	Speedup     float64 `json:"speedup,omitempty"`
	BytesPerOp  int64   `json:"bytes_per_op"`
	AllocsPerOp int64   `json:"allocs_per_op"`
	// Samples is the number of samples that process took.
	Samples int `json:"samples"`
}
