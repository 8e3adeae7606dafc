package bench

import (
	"fmt"
	"time"

	"github.com/serbench/serbench/results"
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
