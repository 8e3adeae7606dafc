package rundoc

import (
	"fmt"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/toolchain"
)

// Quick-mode settings (Sampling.Quick): one sample budget small enough for
// the whole default matrix to finish in about 30 seconds on 2 cores.
const (
	QuickBenchtime = 5 * time.Millisecond
	QuickCount     = 3
)

// Sampling is how serbench run's sampling flags (-benchtime, -count,
// -target, -max-time, -quick, -profiletime, -live-heap) combine into
// bench.Options: adaptive sampling to Target unless Count is given or
// Quick; Quick sets -benchtime QuickBenchtime and -count QuickCount unless
// they are given.
type Sampling struct {
	Benchtime, MaxTime, ProfileTime time.Duration
	Count                           int
	Target                          float64
	// LiveHeap is -live-heap's text (bench.ParseLiveHeap).
	LiveHeap string
	Quick    bool
	// CountSet, BenchtimeSet and TargetSet say which flags were given.
	CountSet, BenchtimeSet, TargetSet bool
}

// A SamplingError is a Sampling out of range or in conflict with itself:
// a usage mistake, worded by flag.
type SamplingError struct{ Err error }

func (e *SamplingError) Error() string { return e.Err.Error() }
func (e *SamplingError) Unwrap() error { return e.Err }

// Options returns the bench.Options in effect (bench.Options.Effective,
// Baseline results.DefaultBaseline). Every error is a *SamplingError.
func (s Sampling) Options() (bench.Options, error) {
	opts := bench.Options{Benchtime: s.Benchtime, Count: s.Count, Baseline: results.DefaultBaseline, ProfileTime: s.ProfileTime}
	if s.adaptive() {
		opts.Target, opts.MaxTime, opts.Count = s.Target, s.MaxTime, 0
		if !s.BenchtimeSet && opts.Target > 0 {
			opts.Benchtime = 0 // bench.DefaultAdaptiveBenchtime
		}
	}
	if s.Quick {
		if !s.BenchtimeSet {
			opts.Benchtime = QuickBenchtime
		}
		if !s.CountSet {
			opts.Count = QuickCount
		}
	}
	var err error
	switch {
	case s.Count < 1:
		err = fmt.Errorf("invalid -count %d (range is [1, %d])", s.Count, bench.MaxCount)
	case s.CountSet && s.TargetSet && s.Target > 0:
		err = fmt.Errorf("-count %d and -target %v%%: choose one (-count is a fixed number of samples)", s.Count, 100*s.Target)
	case s.Benchtime <= 0:
		err = fmt.Errorf("invalid -benchtime %v (must be positive)", s.Benchtime)
	}
	if err != nil {
		return opts, &SamplingError{err}
	}
	if opts.LiveHeap, err = bench.ParseLiveHeap(s.LiveHeap); err != nil {
		return opts, &SamplingError{fmt.Errorf("-live-heap: %w", err)}
	}
	if opts, err = opts.Effective(); err != nil {
		return opts, &SamplingError{err} // every field comes from a flag
	}
	return opts, nil
}

// Rounds is the rounds of run -go (toolchain.Options.Rounds) for opts
// from Options: toolchain.DefaultRounds under adaptive sampling, the
// samples per cell otherwise.
func (s Sampling) Rounds(opts bench.Options) int {
	if s.adaptive() {
		return toolchain.DefaultRounds
	}
	return opts.Count
}

func (s Sampling) adaptive() bool { return !s.CountSet && !s.Quick }
