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
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/stats"
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
	// results.DefaultBaseline. Matrix measures it only when the codecs it is given
	// include it (cmd/serbench run always adds it).
	Baseline string
	// Parallel, when true, also measures every cell with 1 to GOMAXPROCS
	// goroutines at once, each with its own Binding (as testing.B.RunParallel
	// does), and reports throughput and scaling in results.Row.Parallel.
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
	// Progress, if set, is called after each unit of work with the number
	// of units done and the total. It is called from Matrix's goroutine.
	Progress func(done, total int)
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
		o.Baseline = results.DefaultBaseline
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

// Matrix runs every codec on every scenario and returns one row per cell,
// ordered by scenario, then codec (as given), then op. Speed-ups are relative
// to opts.Baseline when codecs includes it. It returns an error only for
// invalid options or a cancelled context; per-cell failures are findings in
// the results.
func Matrix(ctx context.Context, codecs []codec.Codec, scenarios []scenario.Scenario, opts Options) ([]results.Row, error) {
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
	perCell := 1 + opts.Count
	if opts.Parallel {
		perCell++
	}
	if opts.Profiler != nil {
		perCell++
	}
	total := len(timed) * perCell
	done := 0
	step := func() {
		done++
		if opts.Progress != nil {
			opts.Progress(done, total)
		}
	}
	heap := HoldLiveHeap(opts.LiveHeap)
	defer heap.Release()
	for _, c := range timed {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c.calibrate(opts.Benchtime)
		step()
	}
	pairing(timed, opts.Baseline)
	meter := newNoiseMeter(opts.Benchtime)
	s := &sampler{timed: timed, opts: opts, deadline: started.Add(opts.MaxTime), step: step, meter: meter,
		grow: func(n int) { total += n }}
	if err := s.run(ctx); err != nil {
		return nil, err
	}
	if opts.Parallel {
		for _, c := range timed {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			c.parallel()
			step()
		}
	}
	if opts.Profiler != nil {
		for _, c := range timed {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if err := c.profile(opts); err != nil {
				return nil, err
			}
			step()
		}
	}
	rows := matrixResults(cells, codecs, opts)
	if opts.Target > 0 {
		for i := range rows {
			r := &rows[i]
			hw, ok := r.TargetHalfWidth()
			r.TargetMissed = r.Timed() && (!ok || hw > opts.Target)
		}
	}
	return &Measurement{Results: rows, Noise: meter.result(), LiveHeap: heap.condition()}, nil
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
				if x.Op != results.OpConvert {
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

// matrixResults summarises the cells' samples into one row each, with
// the figures that compare cells: speed-ups over opts.Baseline, ratios to
// the reference row, same-bytes flags and compression ratios.
func matrixResults(cells []*cell, codecs []codec.Codec, opts Options) []results.Row {
	rows := make([]results.Row, len(cells))
	for i, c := range cells {
		rows[i] = c.result()
	}
	results.AddSpeedups(rows, opts.Baseline)
	results.AddFloorRatios(rows, referenceID(codecs))
	addSameBytes(rows, cells, opts.Baseline)
	results.AddJSONRatios(rows, opts.Baseline)
	return rows
}

// cell is one (codec, scenario, op) under measurement.
type cell struct {
	results.Row
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
	// pairs holds the per-pair speed-ups (results.Row.PairRatios).
	pairs []float64
}

// Op is one operation of a codec bound to one value, checked and ready to
// time: what Matrix times for one cell, for callers that time it with their
// own loop (package serbench does, under testing.B).
type Op struct {
	// Name is results.OpMarshal, OpUnmarshal, OpConvert or (parse-only codecs) OpParse.
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
	// AliasesInput is results.Row.AliasesInput of the unmarshal or parse op.
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
		return &cell{Row: results.Row{Codec: info.ID, Scenario: scenarioID, Op: op}}
	}
	m, u := mk(results.OpMarshal), mk(results.OpUnmarshal)
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
		cv = mk(results.OpConvert)
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
	p := &cell{Row: results.Row{Codec: c.Info().ID, Scenario: scenarioID, Op: results.OpParse}}
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
// (results.Row.AliasesInput).
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

func (c *cell) result() results.Row {
	r := c.Row
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
		if c.Op != results.OpConvert && r.NsPerOp > 0 {
			r.MBPerS = float64(c.size) / r.NsPerOp * 1e3
		}
	} else {
		r.Iterations = 0
	}
	r.OK = c.failed == nil && len(c.ns) > 0
	return r
}
