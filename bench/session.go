package bench

import (
	"context"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

// Session is the matrix of Measure prepared for sampling one round at a
// time, for a driver that interleaves the rounds of several processes
// (serbench run -go runs one process per Go toolchain and has each take a
// round in turn, so that a change in the machine's speed touches every
// toolchain alike). NewSession round-trips and calibrates every cell, each
// Round takes one sample of every timed cell (paired with the baseline), and Results
// summarises them as Measure does. It holds Options.LiveHeap
// from NewSession to Close; Options.Target, MaxTime, Parallel and the
// profile folders have no effect. A Session is not safe for concurrent
// use.
type Session struct {
	cells, timed []*cell
	opts         Options
	heap         *LiveHeap
}

// NewSession prepares the matrix of codecs × scenarios: it round-trips
// every cell and calibrates every timed one to opts.Benchtime. It returns
// an error for invalid options or a cancelled context only; per-cell
// failures are findings in the results.
func NewSession(ctx context.Context, codecs []codec.Codec, scenarios []scenario.Scenario, opts Options) (*Session, error) {
	opts, err := opts.Effective()
	if err != nil {
		return nil, err
	}
	cells, timed := prepareMatrix(codecs, scenarios, opts)
	heap := HoldLiveHeap(opts.LiveHeap)
	for _, c := range timed {
		if err := ctx.Err(); err != nil {
			heap.Release()
			return nil, err
		}
		c.calibrate(opts.Benchtime)
	}
	pairing(timed, opts.Baseline)
	return &Session{cells: cells, timed: groupByBase(timed), opts: opts, heap: heap}, nil
}

// Close releases the live-heap ballast; the Session's results stay
// readable.
func (s *Session) Close() { s.heap.Release() }

// LiveHeap is the GC condition the session samples under, with the live
// heap measured when it was prepared (as Measurement.LiveHeap).
func (s *Session) LiveHeap() LiveHeap { return s.heap.condition() }

// Timed returns the number of cells a Round samples.
func (s *Session) Timed() int { return len(s.timed) }

// Round takes one sample of every timed cell, each cell that has a
// baseline cell between two samples of it (paired sampling, see
// paired.go). It returns an error only for a cancelled context.
func (s *Session) Round(ctx context.Context) error {
	sampleCells(s.timed, func() bool { return ctx.Err() == nil }, func() {})
	return ctx.Err()
}

// Results returns one row per cell, ordered and summarised as Measure's.
func (s *Session) Results() []results.Row { return matrixResults(s.cells, s.opts) }
