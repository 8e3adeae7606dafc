package bench

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/stats"
)

// Adaptive sampling defaults and limits.
const (
	// MinAdaptiveCount is the first round's samples with Options.Target
	// set: the fewest for which golang.org/x/perf/benchmath gives a 95%
	// interval on the median.
	MinAdaptiveCount = 6
	// DefaultMaxTime keeps the default `serbench run` (every codec on every
	// built-in scenario, about 400 cells) within 3 minutes on 2 cores: the
	// budget covers preparing and sampling; the report is written after it.
	DefaultMaxTime = 150 * time.Second
	// MaxTarget bounds Options.Target from above (exclusive).
	MaxTarget = 1.0
	// DefaultAdaptiveBenchtime is the sample length with Target set: many
	// short samples narrow the median's interval much faster than few long
	// ones in the same time. On the shared 2-core machine of docs/findings
	// (load average 13 to 20), 6 codecs × 5 seed scenarios with the same
	// budget per cell gave a median 95% half-width of 17-25% with 80
	// samples of 3 ms, 33-37% with 40 of 6 ms, 80% with 20 of 12 ms and
	// 145-194% with 10 of 24 ms (two runs each).
	DefaultAdaptiveBenchtime = 3 * time.Millisecond
)

// Measurement is the outcome of Measure.
type Measurement struct {
	// Results holds one row per cell, as Matrix returns them.
	Results []results.Row
	// Noise is the machine's noise measured between rounds of samples.
	Noise env.Noise
	// LiveHeap is the GC condition the cells were timed under
	// (Options.LiveHeap), with the live heap measured before timing.
	LiveHeap LiveHeap
}

// effectiveAdaptive checks the adaptive fields of o (defaults filled in).
func (o Options) effectiveAdaptive() (Options, error) {
	if o.Target < 0 || o.Target >= MaxTarget || math.IsNaN(o.Target) {
		return o, fmt.Errorf("bench: invalid Target %v (range is [0, %v))", o.Target, MaxTarget)
	}
	if o.MaxTime < 0 {
		return o, fmt.Errorf("bench: invalid MaxTime %v (must not be negative)", o.MaxTime)
	}
	if o.Target > 0 && o.Count < MinAdaptiveCount {
		return o, fmt.Errorf("bench: invalid Count %d with Target set (range is [%d, %d])", o.Count, MinAdaptiveCount, MaxCount)
	}
	return o, nil
}

// sampler takes the samples of the timed cells.
//
// First it takes opts.Count samples of every cell round-robin (sample 1 of
// every cell, then sample 2, ...). Without a target that is all. With
// opts.Target it then works in passes: each pass takes one more sample of
// every cell whose 95% interval is still wider than the target (or has
// none), widest first, so a pass is itself round-robin over the cells in
// need; passes continue until every cell meets the target, reaches
// MaxCount samples, or the deadline passes (checked before every sample of
// a pass; the first round always completes, so every cell has an interval).
// The noise meter runs once before every round or pass and once at the end.
type sampler struct {
	timed    []*cell
	opts     Options
	deadline time.Time
	progress *tracker
	after    int // units of work after the sampling (Progress.Left)
	meter    *noiseMeter
}

func (s *sampler) run(ctx context.Context) error {
	s.meter.start()
	defer s.meter.stop()
	live := func() bool { return ctx.Err() == nil }
	order := groupByBase(s.timed)
	t := s.progress
	t.p.Phase, t.p.Left = PhaseSample, s.opts.Count*pairedSamples(order)+s.after
	if s.opts.Target > 0 && len(order) > 0 {
		// Until the first round gives intervals, the passes may take
		// every cell to MaxCount: the most, which MaxTime bounds.
		t.p.Left += (MaxCount - s.opts.Count) * pairedSamples(order) / len(order)
	}
	for range s.opts.Count {
		s.meter.probe()
		sampleCells(order, live, t.step)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if s.opts.Target <= 0 {
		s.meter.probe()
		return nil
	}
	inTime := func() bool { return live() && time.Now().Before(s.deadline) }
	for {
		s.meter.probe()
		wide := groupByBase(s.wide())
		t.p.CellsDone, t.p.Left = len(s.timed)-len(wide), samplesLeft(wide, s.opts.Target)+s.after
		if len(wide) == 0 {
			return nil
		}
		sampleCells(wide, inTime, t.step)
		if err := ctx.Err(); err != nil {
			return err
		}
		if !inTime() {
			return nil
		}
	}
}

// wide returns the cells still timed whose interval is wider than the
// target, widest first (no interval counts as widest).
func (s *sampler) wide() []*cell {
	type w struct {
		c  *cell
		hw float64
	}
	var ws []w
	for _, c := range s.timed {
		if c.fn == nil || len(c.ns) >= MaxCount {
			continue
		}
		hw, ok := c.targetHalfWidth()
		if !ok {
			hw = math.Inf(1)
		}
		if hw > s.opts.Target {
			ws = append(ws, w{c, hw})
		}
	}
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].hw > ws[j].hw })
	out := make([]*cell, len(ws))
	for i, x := range ws {
		out[i] = x.c
	}
	return out
}

// targetHalfWidth is results.Row.TargetHalfWidth of the cell's samples so far.
func (c *cell) targetHalfWidth() (float64, bool) {
	if c.base != nil && len(c.pairs) > 0 {
		return stats.RatioHalfWidth(stats.Summarize(c.pairs))
	}
	return stats.HalfWidth(c.ns)
}
