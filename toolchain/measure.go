package toolchain

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
)

// Options configure Measure.
type Options struct {
	// Specs are the builds to compare, in report order (the first is the
	// base of every ratio).
	Specs []Spec
	// Builder makes each build's binary; nil means GoBuilder{}.
	Builder Builder
	// Config is the matrix every build measures.
	Config Config
	// Rounds is the number of samples per cell and build: each round takes
	// one sample of every cell in every build. Default (0) DefaultRounds.
	Rounds int
	// Progress, when set, is called after each round of each build with
	// the rounds done and the total.
	Progress func(done, total int)
}

// DefaultRounds is the number of rounds when Options.Rounds is 0: 10, so
// that every cell has a 95% interval (benchmath needs at least 6 samples).
const DefaultRounds = 10

// Run is what one build measured, or why it could not.
type Run struct {
	Spec Spec
	// Env is the environment its worker recorded (Go version, GOEXPERIMENT,
	// encoding/json engine, ...).
	Env      env.Env
	Results  []results.Row
	Warnings []string
	// Absent maps the codecs this build lacks to why.
	Absent map[string]string
	// Err is why the build did not run (failed build, failed worker);
	// its text is one line naming the toolchain.
	Err error
}

// MeasureDocument measures opts (Measure) and returns the complete
// document: NewDocument of the runs, with the environment of this process
// (env.Collect from the start) and Config.Baseline. The runs come back
// too, also with an error, so a caller can tell each build's failure and
// warnings.
func MeasureDocument(ctx context.Context, opts Options) (*Document, []Run, error) {
	started := time.Now()
	runs, err := Measure(ctx, opts)
	if err != nil {
		return nil, runs, err
	}
	return NewDocument(env.Collect(started, nil), opts.Config.Baseline, 0, runs), runs, nil
}

// ErrNothingRan is returned by Measure when no build ran.
var ErrNothingRan = errors.New("toolchain: no toolchain ran")

// Measure builds every spec into a temporary folder (removed before it
// returns), starts the builds as workers and interleaves their rounds.
// It returns one Run per spec, in order; a build that failed has Err set
// and the others go on. The error is ErrNothingRan (wrapped, with each
// build's reason) when every build failed, or the context's.
func Measure(ctx context.Context, opts Options) ([]Run, error) {
	if len(opts.Specs) == 0 {
		return nil, fmt.Errorf("toolchain: no toolchain to measure")
	}
	if opts.Rounds < 0 {
		return nil, fmt.Errorf("toolchain: invalid Rounds %d (must not be negative)", opts.Rounds)
	}
	if opts.Rounds == 0 {
		opts.Rounds = DefaultRounds
	}
	if opts.Builder == nil {
		opts.Builder = GoBuilder{}
	}
	dir, err := os.MkdirTemp("", "serbench-toolchains-")
	if err != nil {
		return nil, fmt.Errorf("toolchain: %w", err)
	}
	defer os.RemoveAll(dir)

	runs := make([]Run, len(opts.Specs))
	workers := make([]*worker, len(opts.Specs))
	defer func() {
		for _, w := range workers {
			if w != nil {
				w.close()
			}
		}
	}()
	for i, s := range opts.Specs {
		runs[i].Spec = s
		exe := filepath.Join(dir, fmt.Sprintf("serbench-%d", i))
		if err := opts.Builder.Build(ctx, s, exe); err != nil {
			runs[i].Err = err
			continue
		}
		w, err := start(ctx, exe, s, opts.Config)
		if err != nil {
			runs[i].Err = err
			continue
		}
		workers[i] = w
		runs[i].Env, runs[i].Warnings, runs[i].Absent = w.hello.Env, w.hello.Warnings, w.hello.Absent
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	started := 0
	for _, w := range workers {
		if w != nil {
			started++
		}
	}
	total, done := opts.Rounds*started, 0
	for r := range opts.Rounds {
		for k := range workers {
			i := (k + r) % len(workers) // each round starts with the next build
			w := workers[i]
			if w == nil {
				continue
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if _, err := w.call("round"); err != nil {
				runs[i].Err, workers[i] = err, nil
				continue
			}
			done++
			if opts.Progress != nil {
				opts.Progress(done, total)
			}
		}
	}
	for i, w := range workers {
		if w == nil {
			continue
		}
		rep, err := w.call("results")
		if err != nil {
			runs[i].Err, workers[i] = err, nil
			continue
		}
		runs[i].Results = analysed(rep.Results, opts.Config.Baseline)
	}
	var why []string
	for _, r := range runs {
		if r.Err == nil {
			return runs, nil
		}
		why = append(why, r.Err.Error())
	}
	return runs, fmt.Errorf("%w: %s", ErrNothingRan, strings.Join(why, "; "))
}

// analysed returns a worker's measured rows with the figures they imply
// (speed-ups over baseline, results.DefaultBaseline when empty, as the
// worker's runner defaults it), derived as results.NewRun derives them.
func analysed(rows []results.Row, baseline string) []results.Row {
	if baseline == "" {
		baseline = results.DefaultBaseline
	}
	return results.NewRun(results.Inputs{Rows: rows, Baseline: baseline}).Results
}
