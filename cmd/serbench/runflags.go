package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/toolchain"
)

// run's flags that are read into typed settings once, here, where they are
// parsed: the sampling flags into bench.Options (samplingFlags.options), -gogc
// and -pin into rundoc.Controls (parseGOGC, parsePin). Errors name the
// flag; the libraries below take only typed values.

// Quick-mode settings (run -quick): one sample budget small enough for the
// whole default matrix to finish in about 30 seconds on 2 cores.
const (
	quickBenchtime = 5 * time.Millisecond
	quickCount     = 3
)

// samplingFlags is how run's sampling flags (-benchtime, -count, -target,
// -max-time, -quick, -profiletime, -live-heap) combine into bench.Options:
// adaptive sampling to target unless -count is given or -quick; -quick
// sets -benchtime quickBenchtime and -count quickCount unless they are
// given.
type samplingFlags struct {
	benchtime, maxTime, profileTime time.Duration
	count                           int
	target                          float64
	// liveHeap is -live-heap's text (bench.ParseLiveHeap).
	liveHeap string
	quick    bool
	// countSet, benchtimeSet and targetSet say which flags were given.
	countSet, benchtimeSet, targetSet bool
}

// options returns the bench.Options in effect (bench.Options.Effective,
// Baseline results.DefaultBaseline). Every error is a usageError naming the
// flag.
func (s samplingFlags) options() (bench.Options, error) {
	opts := bench.Options{Benchtime: s.benchtime, Count: s.count, Baseline: results.DefaultBaseline, ProfileTime: s.profileTime}
	if s.adaptive() {
		opts.Target, opts.MaxTime, opts.Count = s.target, s.maxTime, 0
		if !s.benchtimeSet && opts.Target > 0 {
			opts.Benchtime = 0 // bench.DefaultAdaptiveBenchtime
		}
	}
	if s.quick {
		if !s.benchtimeSet {
			opts.Benchtime = quickBenchtime
		}
		if !s.countSet {
			opts.Count = quickCount
		}
	}
	switch {
	case s.count < 1:
		return opts, usagef("invalid -count %d (range is [1, %d])", s.count, bench.MaxCount)
	case s.countSet && s.targetSet && s.target > 0:
		return opts, usagef("-count %d and -target %v%%: choose one (-count is a fixed number of samples)", s.count, 100*s.target)
	case s.benchtime <= 0:
		return opts, usagef("invalid -benchtime %v (must be positive)", s.benchtime)
	}
	var err error
	if opts.LiveHeap, err = bench.ParseLiveHeap(s.liveHeap); err != nil {
		return opts, usagef("-live-heap: %w", err)
	}
	if opts, err = opts.Effective(); err != nil {
		return opts, usageError{err} // every field comes from a flag
	}
	return opts, nil
}

// rounds is the rounds of run -go (toolchain.Options.Rounds) for opts
// from options: toolchain.DefaultRounds under adaptive sampling, the
// samples per cell otherwise.
func (s samplingFlags) rounds(opts bench.Options) int {
	if s.adaptive() {
		return toolchain.DefaultRounds
	}
	return opts.Count
}

func (s samplingFlags) adaptive() bool { return !s.countSet && !s.quick }

// parseGOGC reads -gogc as the GOGC variable takes it: a percentage ≥ 0,
// or off (-1, as debug.SetGCPercent and rundoc.Controls take it).
func parseGOGC(s string) (*int, error) {
	if s == "off" {
		off := -1
		return &off, nil
	}
	pct, err := strconv.Atoi(s)
	if err != nil || pct < 0 {
		return nil, fmt.Errorf("invalid GC target %q (want a percentage ≥ 0, or off)", s)
	}
	return &pct, nil
}

// parsePin reads -pin: a comma-separated list of processor numbers ("0,1").
func parsePin(s string) ([]int, error) {
	var cpus []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("invalid processor list %q (want processor numbers such as 0,1)", s)
		}
		cpus = append(cpus, n)
	}
	return cpus, nil
}
