// Package bench runs the codec × scenario matrix: it round-trips every cell,
// compares the result with the original, then times marshal, unmarshal and
// (for codecs on generated types) convert, and returns the figures. It never
// prints; callers render a Run with package report.
//
// Timing follows what `go test -bench -benchmem` does, with two changes for a
// shared, noisy machine. First, every cell is calibrated once to an iteration
// count N that fills Options.Benchtime, and then its Count samples are taken
// round-robin across cells (sample 1 of every cell, then sample 2, ...), so a
// burst of noise spreads over all codecs instead of landing on one. Second,
// each figure is the median of the samples with a 95% confidence interval from
// golang.org/x/perf/benchmath (the statistics benchstat uses), and speed-ups
// carry the Mann-Whitney U-test p-value against the baseline and a bootstrap
// 95% interval. With Options.Target set, sampling is adaptive instead of a
// fixed Count: cells whose interval is still wide get more samples until a
// time budget is spent (adaptive.go); a calibration loop timed between
// rounds measures the machine's noise (noise.go), recorded as env.Noise.
package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/stats"
)

// Operation names, as they appear in results and benchmark names.
const (
	OpMarshal   = "marshal"
	OpUnmarshal = "unmarshal"
	// OpConvert is converting the scenario value to a codegen codec's own
	// type and back (Converter.ToNative then FromNative): the cost a user of
	// generated types pays on top of marshal and unmarshal.
	OpConvert = "convert"
	// OpParse is a parse-only codec's (codec.Info.ParseOnly) parse of the
	// JSON input into the library's own document tree: its only row, never
	// compared with any codec's unmarshal (no speed-up: the baseline has no
	// parse row).
	OpParse = "parse"
)

// Defaults and limits of Options.
const (
	// DefaultCount is 10 short samples rather than 6 long ones in the same
	// time: benchmath needs at least 6 samples for a 95% interval on the
	// median, and with 6 that interval is the whole range, so one disturbed
	// sample widens it; with 10 it runs from the 2nd to the 9th sample. On
	// the 2-core machine of the closing notes this halved the median
	// half-width at the same wall time.
	DefaultBenchtime = 24 * time.Millisecond
	DefaultCount     = 10
	DefaultBaseline  = "encoding/json"
	MaxCount         = 1000
	MaxBenchtime     = 10 * time.Minute
	// DefaultProfileTime is how long the profiling pass of one cell runs:
	// about 100 CPU samples at the profiler's 100 Hz, enough to read.
	DefaultProfileTime = time.Second
)

// Options configure Matrix. The zero value means the defaults.
type Options struct {
	// Benchtime is the target duration of one sample of one cell.
	// Default DefaultBenchtime, or DefaultAdaptiveBenchtime with Target set;
	// range (0, MaxBenchtime].
	Benchtime time.Duration
	// Count is the number of samples per cell. Default DefaultCount; range
	// [1, MaxCount]. With Target set it is the first round's count (default
	// and minimum MinAdaptiveCount), after which Target decides.
	Count int
	// Target, when above 0, makes sampling adaptive (see adaptive.go): the
	// goal for every cell's 95% confidence interval half-width, as a
	// fraction of its median (0.03 is ±3%). 0 takes exactly Count samples.
	// Range [0, 1).
	Target float64
	// MaxTime is the wall-time budget of Measure up to the end of adaptive
	// sampling (preparing, calibrating and all samples; not the Parallel or
	// profile passes). Used only with Target. Default DefaultMaxTime.
	MaxTime time.Duration
	// Baseline is the codec ID every speed-up is relative to. Default
	// DefaultBaseline. Matrix measures it only when the codecs it is given
	// include it (cmd/serbench run always adds it).
	Baseline string
	// Parallel, when true, also measures every cell with 1 to GOMAXPROCS
	// goroutines at once, each with its own Binding (as testing.B.RunParallel
	// does), and reports throughput and scaling in Result.Parallel.
	Parallel bool
	// Profiler, when set, profiles every timed cell in passes after the
	// samples, so profiles never perturb the figures; a cell's profiles are
	// named by ProfileName. bench/profiler.Dirs writes one pprof file per
	// cell and kind, from one pass per kind (so heap sampling does not show
	// in the CPU profile). Nil: no profiling pass.
	Profiler Profiler
	// ProfileTime is how long each cell's profiling pass runs (at least as
	// many operations as all its samples took). Default DefaultProfileTime;
	// range (0, MaxBenchtime].
	ProfileTime time.Duration
	// Compressors, when set, add per marshal cell that produced bytes a
	// "compress:<id>" and a "decompress:<id>" cell per compressor, timed
	// like every other op (see compressCells). Empty: none.
	Compressors []Compression
	// LiveHeap is the GC condition of the timing (see liveheap.go): the
	// live heap in bytes Measure keeps during calibration, samples and the
	// parallel and profile passes, by allocating a ballast of LiveHeap
	// minus the live heap it measures once every cell is prepared. 0 adds
	// no ballast: the live heap is serbench's own, as small as it can be
	// (the selected scenarios and their encodings). Range [0, MaxLiveHeap].
	LiveHeap int64
	// Progress, if set, is called after each unit of work with where the
	// run is (see Progress). It is called from Matrix's goroutine.
	Progress func(Progress)
}

// Effective returns o with defaults filled in, or an error naming the first
// field out of range.
func (o Options) Effective() (Options, error) {
	if o.Benchtime == 0 {
		o.Benchtime = DefaultBenchtime
		if o.Target > 0 {
			o.Benchtime = DefaultAdaptiveBenchtime
		}
	}
	if o.Count == 0 {
		o.Count = DefaultCount
		if o.Target > 0 {
			o.Count = MinAdaptiveCount
		}
	}
	if o.Target > 0 && o.MaxTime == 0 {
		o.MaxTime = DefaultMaxTime
	}
	if o.Baseline == "" {
		o.Baseline = DefaultBaseline
	}
	if o.ProfileTime == 0 {
		o.ProfileTime = DefaultProfileTime
	}
	if o.ProfileTime < 0 || o.ProfileTime > MaxBenchtime {
		return o, fmt.Errorf("bench: invalid ProfileTime %v (range is (0, %v])", o.ProfileTime, MaxBenchtime)
	}
	if o.Benchtime < 0 || o.Benchtime > MaxBenchtime {
		return o, fmt.Errorf("bench: invalid Benchtime %v (range is (0, %v])", o.Benchtime, MaxBenchtime)
	}
	if o.LiveHeap < 0 || o.LiveHeap > MaxLiveHeap {
		return o, fmt.Errorf("bench: invalid LiveHeap %d (range is [0, %d])", o.LiveHeap, int64(MaxLiveHeap))
	}
	if o.Count < 1 || o.Count > MaxCount {
		return o, fmt.Errorf("bench: invalid Count %d (range is [1, %d])", o.Count, MaxCount)
	}
	return o.effectiveAdaptive()
}

// Result is the outcome of one (codec, scenario, op) cell. Field names in
// JSON follow the serbench/v1 contract of docs/reference.md, "JSON documents".
type Result struct {
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
	// Speedup is how many times faster than the baseline this cell is on
	// the same scenario and op: with PairRatios, their median (paired
	// sampling); otherwise the baseline's median ns/op divided by this
	// cell's. 0 when the baseline has no figure there.
	Speedup float64 `json:"speedup"`
	// SpeedupP is the p-value that this cell and the baseline take the
	// same time: with PairRatios, the exact two-sided sign test of the
	// per-pair speed-ups against 1; otherwise the Mann-Whitney U-test
	// between this cell's samples and the baseline's. Above 0.05 the
	// difference is not significant ("~"). 1 when there are too few
	// samples to tell.
	SpeedupP float64 `json:"speedup_p"`
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
	// FloorRatio is this cell's median ns/op divided by that of the
	// reference row (a codec of Kind Reference, memmove: copying the
	// scenario's encoded bytes) on the same scenario and op: how many times
	// the physical floor the cell costs. 0 when no reference row ran there.
	FloorRatio float64 `json:"floor_ratio,omitempty"`
	// Parallel holds throughput with 1..GOMAXPROCS goroutines when
	// Options.Parallel is set.
	Parallel []ParallelPoint `json:"parallel,omitempty"`
	// Samples holds ns/op of each sample, in the order taken.
	Samples []float64 `json:"samples"`
	// SampleBytes and SampleAllocs hold B/op and allocs/op of each sample,
	// in the order of Samples (absent in documents from before they were
	// recorded: readers fall back to the medians).
	SampleBytes  []float64 `json:"sample_bytes,omitempty"`
	SampleAllocs []float64 `json:"sample_allocs,omitempty"`
	// Regimes is set when Samples form two clusters of speed rather than
	// one (see stats.DetectRegimes): the fast cluster's median then
	// estimates the undisturbed machine better than NsPerOp. Nil otherwise,
	// and on cells with fewer than stats.MinRegimeSamples samples.
	Regimes *stats.Regimes `json:"regimes,omitempty"`
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
	// but its HalfWidth is still above Options.Target (or it has none).
	TargetMissed bool `json:"target_missed,omitempty"`
	// SpeedupLo and SpeedupHi bound the 95% interval of Speedup: with
	// PairRatios, the distribution-free interval of their median (0 with
	// fewer than 6 pairs); otherwise a bootstrap of the ratio of medians
	// (see stats.RatioInterval), 0 when either side has fewer than 2 samples.
	// 0 when Speedup is 0.
	SpeedupLo float64 `json:"speedup_lo,omitempty"`
	SpeedupHi float64 `json:"speedup_hi,omitempty"`
	// PairRatios holds, for a cell sampled in pairs with the baseline (see
	// paired.go), one speed-up per pair: the baseline's ns/op in the
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
	// JSONRatio is CompressedBytes over the baseline codec's (encoding/json's)
	// uncompressed size on the same scenario; 0 when the baseline did not run.
	JSONRatio float64 `json:"json_ratio,omitempty"`
	// SameBytes is true on a marshal cell whose output is byte for byte
	// the baseline codec's on the same scenario (a drop-in replacement's
	// wire format).
	SameBytes bool `json:"same_bytes,omitempty"`
	// Stream is set on the cells of a message corpus
	// (scenario.Scenario.Messages): ns/op and B/op are then per message,
	// SizeBytes (and CompressedBytes) the mean message size, and Stream
	// the distribution of sizes and the bytes of the whole stream.
	Stream *StreamSizes `json:"stream,omitempty"`
	// Processes holds each process's own figures of the cell when the run
	// was split over several processes (serbench run -processes, see
	// MergeProcesses); the fields above then pool every process's
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
}

// Timed reports whether r carries measured figures.
func (r Result) Timed() bool { return len(r.Samples) > 0 }

// Outcome is the cell's round-trip status in the form every serbench
// document shares, derived from OK, NA and Timed (the serbench/v1 JSON
// keeps those fields): codec.NA when NA; codec.Kept when OK;
// codec.Changed when timed but not exact (Error holds the difference);
// codec.Failed otherwise (a step of the round trip failed, or the
// operation failed while timing, and nothing was timed).
func (r Result) Outcome() codec.Outcome {
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

// Matrix runs every codec on every scenario and returns one Result per cell,
// ordered by scenario, then codec (as given), then op. Speed-ups are relative
// to opts.Baseline when codecs includes it. It returns an error only for
// invalid options or a cancelled context; per-cell failures are findings in
// the results.
func Matrix(ctx context.Context, codecs []codec.Codec, scenarios []scenario.Scenario, opts Options) ([]Result, error) {
	m, err := Measure(ctx, codecs, scenarios, opts)
	if err != nil {
		return nil, err
	}
	return m.Results, nil
}

// Measure is Matrix that also returns the machine's noise measured during
// the run (see env.Noise).
func Measure(ctx context.Context, codecs []codec.Codec, scenarios []scenario.Scenario, opts Options) (*Measurement, error) {
	opts, err := opts.Effective()
	if err != nil {
		return nil, err
	}
	started := time.Now()
	cells, timed := prepareMatrix(codecs, scenarios, opts)
	after := 0 // units of work after the sampling, per cell
	if opts.Parallel {
		after++
	}
	if opts.Profiler != nil {
		after++
	}
	t := &tracker{fn: opts.Progress, p: Progress{Phase: PhaseCalibrate, Cells: len(timed),
		Left: len(timed) * (1 + 2*opts.Count + after)}}
	heap := HoldLiveHeap(opts.LiveHeap)
	defer heap.Release()
	for _, c := range timed {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c.calibrate(opts.Benchtime)
		t.step()
	}
	pairing(timed, opts.Baseline)
	meter := newNoiseMeter(opts.Benchtime)
	s := &sampler{timed: timed, opts: opts, deadline: started.Add(opts.MaxTime), progress: t, after: len(timed) * after, meter: meter}
	if err := s.run(ctx); err != nil {
		return nil, err
	}
	t.p.CellsDone, t.p.Left = len(timed), len(timed)*after
	t.report()
	if opts.Parallel {
		t.p.Phase = PhaseParallel
		for _, c := range timed {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			c.parallel()
			t.step()
		}
	}
	if opts.Profiler != nil {
		t.p.Phase = PhaseProfile
		for _, c := range timed {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if err := c.profile(opts); err != nil {
				return nil, err
			}
			t.step()
		}
	}
	results := matrixResults(cells, codecs, opts)
	if opts.Target > 0 {
		for i := range results {
			r := &results[i]
			hw, ok := r.TargetHalfWidth()
			r.TargetMissed = r.Timed() && (!ok || hw > opts.Target)
		}
	}
	return &Measurement{Results: results, Noise: meter.result(), LiveHeap: heap.condition()}, nil
}

// prepareMatrix binds every codec to every scenario, round-trips each once
// and returns all the cells, ordered by scenario, then codec, then op, and
// those among them that are timed.
func prepareMatrix(codecs []codec.Codec, scenarios []scenario.Scenario, opts Options) (cells, timed []*cell) {
	for _, s := range scenarios {
		sample := s.Value()
		for _, c := range codecs {
			var cs []*cell
			if len(s.Messages) > 0 {
				cs = prepareStream(c, s)
			} else {
				cs = prepare(c, s.ID, sample, s.New, func(_, got any) error { return s.Diff(got) })
			}
			for _, x := range cs {
				if x.Op != OpConvert {
					x.BytesPerElem = scenario.ElementBytes(x.SizeBytes, s.Elements)
				}
			}
			cells = append(cells, cs...)
			if len(opts.Compressors) > 0 && c.Info().Kind != codec.Reference {
				cells = append(cells, compressCells(cs[0], opts.Compressors)...)
			}
		}
	}
	for _, c := range cells {
		if c.fn != nil {
			timed = append(timed, c)
		}
	}
	return cells, timed
}

// matrixResults summarises the cells' samples into one Result each, with
// the figures that compare cells: speed-ups over opts.Baseline, ratios to
// the reference row, same-bytes flags and compression ratios.
func matrixResults(cells []*cell, codecs []codec.Codec, opts Options) []Result {
	results := make([]Result, len(cells))
	for i, c := range cells {
		results[i] = c.result()
	}
	AddSpeedups(results, opts.Baseline)
	AddFloorRatios(results, referenceID(codecs))
	addSameBytes(results, cells, opts.Baseline)
	AddJSONRatios(results, opts.Baseline)
	return results
}

// cell is one (codec, scenario, op) under measurement.
type cell struct {
	Result
	// newFn returns a function that runs n operations, on a Binding of its
	// own; nil when the cell is not timed. fn is the one the samples use.
	newFn  func() (func(n int) error, error)
	fn     func(n int) error
	size   int // encoded bytes per op, for MB/s
	ns     []float64
	bytes  []float64
	allocs []float64
	gcs    []float64
	pauses []float64
	failed error
	// encoded is the marshal output of the round trip (marshal cells only);
	// for a message corpus, all messages' outputs concatenated.
	encoded []byte
	// encodedAll is, on a message corpus's marshal cell, each message's
	// marshal output; nil otherwise.
	encodedAll [][]byte
	// base is the baseline cell this cell is sampled between (see
	// paired.go); nil for the baseline itself and for unpaired cells.
	base *cell
	// pairs holds the per-pair speed-ups (Result.PairRatios).
	pairs []float64
}

// Op is one operation of a codec bound to one value, checked and ready to
// time: what Matrix times for one cell, for callers that time it with their
// own loop (package serbench does, under testing.B).
type Op struct {
	// Name is OpMarshal, OpUnmarshal, OpConvert or (parse-only codecs) OpParse.
	Name string
	// Size is the encoded value in bytes; 0 when the codec could not
	// marshal it.
	Size int
	// NA is true when the codec cannot take the value at all; Err says why.
	NA bool
	// Err is nil when the value round-tripped and compared equal. Otherwise
	// it is the n/a reason, the failed step, or the difference the compare
	// function returned; an Op with a difference is still timed (Run is set).
	Err error
	// AliasesInput is Result.AliasesInput of the unmarshal or parse op.
	AliasesInput *bool
	// Run performs n operations on a Binding of its own and keeps the last
	// result alive; nil when the operation cannot run (n/a, or an earlier
	// step of the round trip failed). It is not safe for concurrent use.
	Run func(n int) error
}

// Prepare binds c to sample (a non-nil pointer), round-trips it once and
// compares the result with sample using diff, exactly as Matrix does before
// it times a cell, and returns the operations: marshal, unmarshal and, when
// the Binding is a codec.Converter, convert. newValue, when not nil, makes
// the values Unmarshal decodes into (scenario.Scenario.New,
// codec.BindNew). A nil diff means fidelity.Diff.
func Prepare(c codec.Codec, sample any, newValue func() any, diff func(want, got any) error) []Op {
	if diff == nil {
		diff = fidelity.Diff
	}
	cells := prepare(c, "", sample, newValue, diff)
	ops := make([]Op, len(cells))
	for i, x := range cells {
		ops[i] = Op{Name: x.Op, Size: x.size, NA: x.NA, Err: x.failed, Run: x.fn, AliasesInput: x.AliasesInput}
	}
	return ops
}

// prepare binds c to the scenario, round-trips once, compares with diff and
// builds the timed functions. It returns the cells for marshal, unmarshal
// and, for converting codecs, convert.
func prepare(c codec.Codec, scenarioID string, sample any, newValue func() any, diff func(want, got any) error) []*cell {
	info := c.Info()
	if info.ParseOnly {
		return prepareParse(c, scenarioID, sample)
	}
	mk := func(op string) *cell {
		return &cell{Result: Result{Codec: info.ID, Scenario: scenarioID, Op: op}}
	}
	m, u := mk(OpMarshal), mk(OpUnmarshal)
	na := func(err error) []*cell {
		for _, x := range []*cell{m, u} {
			x.NA, x.Error, x.failed = true, err.Error(), err
		}
		return []*cell{m, u}
	}
	b, err := codec.BindNew(c, sample, newValue)
	if err != nil {
		return na(err)
	}
	_, isConv := b.(codec.Converter)
	bind := binder(c, sample, newValue)
	b, in, err := bind()
	if err != nil {
		return na(err)
	}
	data, err := b.Marshal(in)
	if err != nil {
		return na(fmt.Errorf("marshal: %w", err))
	}
	data = bytes.Clone(data) // a reusing codec may overwrite its output on the next call
	m.SizeBytes, u.SizeBytes = len(data), len(data)
	m.size, u.size = len(data), len(data)
	m.encoded = data
	m.newFn = marshalLoop(bind)
	cells := []*cell{m, u}
	var cv *cell
	if isConv {
		cv = mk(OpConvert)
		cells = append(cells, cv)
	}
	out, err := b.Unmarshal(data)
	if err != nil {
		u.failed = fmt.Errorf("unmarshal: %w", err)
		m.failed = fmt.Errorf("round trip failed: %w", u.failed)
		if cv != nil {
			cv.failed = errors.New("not measured: unmarshal failed")
		}
		return ready(cells)
	}
	u.newFn = unmarshalLoop(bind, data)
	if out, err = codec.Value(b, out); err != nil {
		cv.failed = err
		m.failed, u.failed = cv.failed, cv.failed
		return ready(cells)
	}
	if isConv {
		cv.newFn = convertLoop(bind, sample)
	}
	if info.Kind != codec.Reference {
		if d := diff(sample, out); d != nil {
			for _, x := range cells {
				x.failed = d
			}
		} else {
			u.AliasesInput = probeAliases(info, bind, data, func(b codec.Binding, out any) error {
				v, err := codec.Value(b, out)
				if err != nil {
					return err
				}
				return diff(sample, v)
			})
		}
	}
	return ready(cells)
}

// prepareParse is prepare for a parse-only codec (codec.Info.ParseOnly):
// one cell, OpParse, whose input is the Binding's Marshal of sample (its
// encoding/json text). The round-trip check walks the parsed tree
// (codec.DOM) and compares it with the input decoded by encoding/json
// (codec.JSONTree) using fidelity.Diff.
func prepareParse(c codec.Codec, scenarioID string, sample any) []*cell {
	p := &cell{Result: Result{Codec: c.Info().ID, Scenario: scenarioID, Op: OpParse}}
	bind := binder(c, sample, nil)
	b, in, err := bind()
	if err != nil {
		p.NA, p.Error, p.failed = true, err.Error(), err
		return []*cell{p}
	}
	data, err := b.Marshal(in)
	if err != nil {
		p.NA, p.Error, p.failed = true, "input: "+err.Error(), fmt.Errorf("input: %w", err)
		return []*cell{p}
	}
	data = bytes.Clone(data)
	p.SizeBytes, p.size = len(data), len(data)
	p.failed = checkParse(b, data)
	if !errors.Is(p.failed, errParseFailed) {
		p.newFn = unmarshalLoop(bind, data)
	}
	if p.failed == nil {
		if want, err := codec.JSONTree(data); err == nil {
			p.AliasesInput = probeAliases(c.Info(), bind, data, func(b codec.Binding, doc any) error {
				got, err := b.(codec.DOM).Tree(doc)
				if err != nil {
					return err
				}
				return fidelity.Diff(want, got)
			})
		}
	}
	return ready([]*cell{p})
}

// probeAliases runs the alias probe (codec.AliasesInput) on data with a
// Binding of its own, check comparing what it decoded; nil when the probe
// could not run. A ZeroCopy codec is true without a probe
// (Result.AliasesInput).
func probeAliases(info codec.Info, bind func() (codec.Binding, any, error), data []byte, check func(codec.Binding, any) error) *bool {
	if info.ZeroCopy {
		return new(true)
	}
	b, _, err := bind()
	if err != nil {
		return nil
	}
	aliases, err := codec.AliasesInput(b, data, func(out any) error { return check(b, out) })
	if err != nil {
		return nil
	}
	return &aliases
}

// errParseFailed is wrapped when a parse-only codec's parse itself failed.
var errParseFailed = errors.New("parse failed")

// checkParse parses data with b and compares the tree with encoding/json's
// reading of data.
func checkParse(b codec.Binding, data []byte) error {
	dom, ok := b.(codec.DOM)
	if !ok {
		return fmt.Errorf("%w: the Binding of a parse-only codec does not implement codec.DOM", errParseFailed)
	}
	doc, err := b.Unmarshal(data)
	if err != nil {
		return fmt.Errorf("%w: %w", errParseFailed, err)
	}
	got, err := dom.Tree(doc)
	if err != nil {
		return fmt.Errorf("tree: %w", err)
	}
	want, err := codec.JSONTree(data)
	if err != nil {
		return err
	}
	return fidelity.Diff(want, got)
}

// ready makes the timed function of each cell that has one.
func ready(cells []*cell) []*cell {
	for _, x := range cells {
		if x.newFn == nil {
			continue
		}
		var err error
		if x.fn, err = x.newFn(); err != nil {
			x.failed, x.newFn = err, nil
		}
	}
	return cells
}

// calibrate finds the iteration count that fills d, as testing.B does:
// grow n from 1, predicting from the last run, at most 100x per step. A
// count is accepted only when a second timing of it fills at least half
// of d too: one timing stretched by preemption (a busy neighbour sharing
// the CPU) would otherwise stop the growth early and leave samples far
// shorter than d, where the runner's own per-sample work shows (seen: 100
// iterations of a 60 ns marshal, 25 µs samples, ns/op read 4x too high).
func (c *cell) calibrate(d time.Duration) {
	runtime.GC()
	n := 1
	timed := func() (time.Duration, bool) {
		start := time.Now()
		if err := c.fn(n); err != nil {
			c.stop(err)
			return 0, false
		}
		return time.Since(start), true
	}
	for {
		el, ok := timed()
		if !ok {
			return
		}
		if el >= d && n < 1e9 {
			again, ok := timed()
			if !ok {
				return
			}
			if again < d/2 {
				el = again
			}
		}
		if el >= d || n >= 1e9 {
			c.Iterations = n
			return
		}
		next := n * 100
		if el > 0 {
			next = int(float64(d) * 1.2 * float64(n) / float64(el))
		}
		next = min(max(next, n+1), n*100, 1e9)
		n = next
	}
}

// sample runs one sample of c.Iterations operations.
func (c *cell) sample() {
	if c.fn == nil {
		return
	}
	// readGC allocates, so it stays outside the MemStats window: otherwise
	// its bytes would count against a cell with few iterations.
	var before, after runtime.MemStats
	gcBefore := readGC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	err := c.fn(c.Iterations)
	el := time.Since(start)
	runtime.ReadMemStats(&after)
	gcAfter := readGC()
	if err != nil {
		c.stop(err)
		return
	}
	n := float64(c.Iterations)
	c.ns = append(c.ns, float64(el.Nanoseconds())/n)
	c.bytes = append(c.bytes, float64(after.TotalAlloc-before.TotalAlloc)/n)
	c.allocs = append(c.allocs, float64(after.Mallocs-before.Mallocs)/n)
	c.gcs = append(c.gcs, float64(gcAfter.cycles-gcBefore.cycles)*1000/n)
	c.pauses = append(c.pauses, float64(after.PauseTotalNs-before.PauseTotalNs)/n)
	c.PeakHeapBytes = max(c.PeakHeapBytes, int64(gcAfter.heapGoal))
}

// stop ends timing of a cell whose operation failed after the round trip
// had succeeded (a codec that is not deterministic, say).
func (c *cell) stop(err error) {
	c.fn, c.newFn = nil, nil
	c.failed = fmt.Errorf("%s failed while timing: %w", c.Op, err)
	c.ns, c.bytes, c.allocs, c.pairs = nil, nil, nil, nil
}

func (c *cell) result() Result {
	r := c.Result
	if r.NA {
		return r
	}
	if c.failed != nil {
		r.Error = c.failed.Error()
	}
	if len(c.ns) > 0 {
		r.NsPerOp, r.NsPerOpLo, r.NsPerOpHi = stats.Summarize(c.ns)
		r.BytesPerOp = int64(stats.Median(c.bytes))
		r.AllocsPerOp = int64(stats.Median(c.allocs))
		r.GCPer1kOps = stats.Median(c.gcs)
		r.GCPauseNsPerOp = stats.Median(c.pauses)
		r.Samples = c.ns
		r.SamplesTaken = len(c.ns)
		r.SampleBytes, r.SampleAllocs = c.bytes, c.allocs
		r.HalfWidth, _ = stats.HalfWidth(c.ns)
		r.PairRatios = c.pairs
		r.Regimes = stats.DetectRegimes(c.ns)
		if c.Op != OpConvert && r.NsPerOp > 0 {
			r.MBPerS = float64(c.size) / r.NsPerOp * 1e3
		}
	} else {
		r.Iterations = 0
	}
	r.OK = c.failed == nil && len(c.ns) > 0
	return r
}
