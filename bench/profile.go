package bench

import (
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/stats"
)

// Profiler takes the profiles of a cell (Options.Profiler). Profile calls
// run once per profiling pass it takes (each call runs the cell for
// Options.ProfileTime worth of operations), with whatever profiling it
// wants around it, and records the result under name (the cell's
// ProfileName). It returns run's first error as is, running no further
// pass; any other error is the profiler's own and stops Matrix. bench/profiler.Dirs writes pprof
// files; bench itself links no profiler.
type Profiler interface {
	Profile(name string, run func() error) error
}

// ProfileName returns the file name of a cell's profile:
// <codec>_<scenario>_<op>.pprof, each part escaped by codec.EscapeID ("/"
// written as "."), as in benchmark names.
func ProfileName(codecID, scenarioID, op string) string {
	return codec.EscapeID(codecID) + "_" + codec.EscapeID(scenarioID) + "_" + codec.EscapeID(op) + ".pprof"
}

// profile runs c's profiling passes under opts.Profiler, each for
// opts.ProfileTime worth of operations (at least as many as all its
// samples took). A failure of
// the codec stops the cell, as in sampling; a failure of the profiler is
// returned.
func (c *cell) profile(opts Options) error {
	if c.fn == nil {
		return nil
	}
	n := c.Iterations * opts.Count
	if len(c.ns) > 0 {
		if ns := stats.Median(c.ns); ns > 0 {
			n = max(n, int(min(float64(opts.ProfileTime)/ns, 1e9)))
		}
	}
	var runErr error
	err := opts.Profiler.Profile(ProfileName(c.Codec, c.Scenario, c.Op), func() error {
		runErr = c.fn(n)
		return runErr
	})
	if runErr != nil {
		c.stop(runErr)
		return nil
	}
	return err
}
