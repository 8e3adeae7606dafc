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
// golang.org/x/perf/benchmath (the statistics benchstat uses); cells next
// to the baseline are sampled in pairs with it (paired.go), whose ratios
// results.NewRun turns into speed-ups. The rows are measured only: the
// figures they imply (results.Derived) are package results's. With
// Options.Target set, sampling is adaptive instead of a fixed Count: cells
// whose interval is still wide get more samples until a time budget is
// spent (adaptive.go); a calibration loop timed between rounds measures
// the machine's noise (noise.go), recorded as env.Noise.
package bench

import (
	"context"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

// Matrix runs every codec on every scenario and returns one row per cell,
// ordered by scenario, then codec (as given), then op: the measured fields,
// with no Derived figures (results.NewRun derives them; speed-ups are over
// opts.Baseline when codecs includes it). It returns an error only for
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
	rows := matrixResults(cells, opts)
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

// matrixResults summarises the cells' samples into one measured row
// each, with the same-bytes flags, which compare the cells' encoded bytes
// (the figures rows imply, such as speed-ups, are results.NewRun's).
func matrixResults(cells []*cell, opts Options) []results.Row {
	rows := make([]results.Row, len(cells))
	for i, c := range cells {
		rows[i] = c.result()
	}
	addSameBytes(rows, cells, opts.Baseline)
	return rows
}
