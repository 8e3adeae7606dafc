package bench

import (
	"fmt"
	"runtime"
	"time"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/stats"
)

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
		if c.Op != results.OpConvert && r.NsPerOp > 0 {
			r.MBPerS = float64(c.size) / r.NsPerOp * 1e3
		}
	} else {
		r.Iterations = 0
	}
	r.OK = c.failed == nil && len(c.ns) > 0
	return r
}
