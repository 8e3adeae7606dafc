package ab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// ErrNoBenchmarks is the error (wrapped) of a Run in which no benchmark
// matched Options.Bench at either revision, or whose package has no test
// files.
var ErrNoBenchmarks = errors.New("no benchmarks matched")

// Run builds the test binary of opts.Package at opts.Base and at opts.Head
// (or in the working tree), then runs both alternately for opts.Rounds
// rounds and pairs their results round by round (see the package
// documentation and Result). Both builds finish before anything runs.
//
// Errors, each one line: an invalid option (*OptionError); git missing or
// opts.Dir not in a git checkout; a revision that does not exist, named; a
// build that fails, with the revision and the go command's first error
// line; a test binary that fails, with the revision and its reason; no
// benchmark matching (ErrNoBenchmarks, wrapped); with
// MeasureInstructions, valgrind missing (ErrNoValgrind, wrapped, before
// anything is built) or a benchmark that fails or does not run under
// callgrind; ctx's error when ctx ends first. The worktrees Run makes are removed before it returns, whatever
// happened; a failure to remove them is added to the error, or, after a
// successful run, to Result.Warnings.
func Run(ctx context.Context, opts Options) (res *Result, err error) {
	opts, err = opts.Resolved()
	if err != nil {
		return nil, err
	}
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, fmt.Errorf("ab: %w", err)
	}
	co, err := findCheckout(ctx, dir)
	if err != nil {
		return nil, err
	}
	base, err := co.resolve(ctx, opts.Base)
	if err != nil {
		return nil, err
	}
	head := co.workingTree(ctx)
	if opts.Head != "" {
		if head, err = co.resolve(ctx, opts.Head); err != nil {
			return nil, err
		}
	}

	tmp, err := os.MkdirTemp("", "serbench-ab-")
	if err != nil {
		return nil, fmt.Errorf("ab: %w", err)
	}
	var cg *callgrind
	if opts.Measure == MeasureInstructions {
		if cg, err = newCallgrind(ctx, lookPath, tmp); err != nil {
			os.RemoveAll(tmp)
			return nil, err
		}
	}
	var worktrees []string
	defer func() {
		// Prune last: it forgets any worktree whose folder is gone,
		// including one that a cancelled git worktree add left half made.
		cerr := co.removeWorktrees(worktrees)
		if rerr := os.RemoveAll(tmp); rerr != nil {
			cerr = errors.Join(cerr, fmt.Errorf("ab: %w", rerr))
		}
		cerr = errors.Join(cerr, co.prune())
		switch {
		case cerr == nil:
		case err != nil:
			err = errors.Join(err, cerr)
		default:
			res.Warnings = append(res.Warnings, cerr.Error())
		}
	}()

	sides := [2]*side{{rev: base}, {rev: head}}
	names := [2]string{"base", "head"}
	for i, s := range sides {
		s.bins = []string{filepath.Join(tmp, names[i]+".test")}
		for k := 2; k <= opts.Layouts; k++ {
			s.bins = append(s.bins, filepath.Join(tmp, fmt.Sprintf("%s-layout%d.test", names[i], k)))
		}
		if s.rev.WorkingTree {
			s.tree, s.dir = co.top, dir
			continue
		}
		tree := filepath.Join(tmp, names[i])
		if err := co.addWorktree(ctx, tree, s.rev.Commit); err != nil {
			if ctx.Err() != nil {
				return nil, interrupted(ctx)
			}
			return nil, err
		}
		worktrees = append(worktrees, tree)
		s.tree, s.dir = tree, filepath.Join(tree, filepath.FromSlash(co.prefix))
	}
	var probed chan probeResult
	if cg != nil && len(opts.Probe) > 0 {
		// valgrind takes seconds to start a large program: let it while
		// the builds run.
		probed = make(chan probeResult, 1)
		go func() {
			f, err := cg.probe(ctx, opts.Probe)
			probed <- probeResult{f, err}
		}()
	}
	built := 0
	for i, s := range sides {
		starting := func(k int) {
			if opts.Building != nil {
				opts.Building(names[i], k+1, len(s.bins), built, 2*len(s.bins))
			}
			built++
		}
		if err := s.build(ctx, opts.Package, starting); err != nil {
			if ctx.Err() != nil {
				return nil, interrupted(ctx)
			}
			return nil, fmt.Errorf("ab: %s: %w", s.label(names[i]), err)
		}
	}

	if cg != nil {
		res, err = countAll(ctx, opts, cg, sides, names)
		if err != nil {
			if ctx.Err() != nil {
				return nil, interrupted(ctx)
			}
			return nil, err
		}
		res.Base, res.Head = base, head
		res.Counter = &Counter{Tool: "callgrind (" + cg.version + ")", Hardware: hardwareText(hardwareCounters()), CPUFeatures: CPUFeatures()}
		if probed != nil {
			p := <-probed
			if p.err != nil {
				res.Warnings = append(res.Warnings, p.err.Error())
			}
			res.Counter.EmulatedCPUFeatures = p.features
		}
		return res, nil
	}

	outs := [2][][]byte{}
	var prog Progress
	// rounds runs rounds from up to to, reporting progress against total
	// invocations: every benchmark opts.Bench matches, or those named.
	rounds := func(from, to, total int, names []string) error {
		pattern := opts.Bench
		if names != nil {
			pattern = benchUnion(names)
		}
		args := []string{"-test.run", "^$", "-test.bench", pattern, "-test.benchmem",
			"-test.count", "1", "-test.benchtime", opts.benchtime()}
		for r := from; r < to; r++ {
			order := []int{0, 1} // A B
			if r%2 == 1 {
				order = []int{1, 0} // B A
			}
			for _, i := range order {
				out, err := sides[i].invoke(ctx, r, args)
				if err != nil {
					if ctx.Err() != nil {
						return interrupted(ctx)
					}
					return fmt.Errorf("ab: %s, round %d: %w", sides[i].label(names[i]), r+1, err)
				}
				outs[i] = append(outs[i], out)
				prog.Runs = len(outs[0]) + len(outs[1])
				prog.RunsLeft = max(total-prog.Runs, 0)
				if r == 0 && len(outs[0]) == 1 && len(outs[1]) == 1 {
					prog.Benchmarks = commonBenchmarks(outs[0][0], outs[1][0])
				}
				opts.progress(prog)
			}
			if r == 0 && !hasBenchmarks(outs[0][0]) && !hasBenchmarks(outs[1][0]) {
				return fmt.Errorf("ab: %w -bench %q in %s at %s or %s", ErrNoBenchmarks, opts.Bench, opts.Package, base, head)
			}
		}
		return nil
	}
	start := time.Now()
	if err := rounds(0, opts.Rounds, 2*opts.Rounds, nil); err != nil {
		return nil, err
	}
	if opts.Budget > 0 {
		res, err = sequential(opts, outs[:], start, rounds, func(decided int) {
			prog.Decided = decided
			opts.progress(prog)
		})
	} else {
		res, err = analyze(opts, outs[0], outs[1])
	}
	if err != nil {
		return nil, err
	}
	if opts.Budget == 0 {
		prog.Decided = len(res.Benchmarks)
	}
	prog.RunsLeft = 0
	opts.progress(prog)
	res.Base, res.Head = base, head
	return res, nil
}

// lookPath finds valgrind; tests replace it.
var lookPath = exec.LookPath

type probeResult struct {
	features []string
	err      error
}

// countAll counts the instructions per operation of every benchmark both
// sides run, opts.Rounds times, as Options.Measure describes: first one
// native run of each side at opts.Benchtime finds the benchmarks and their
// ns/op (for N); then each round runs, for each benchmark, base then head
// (B A in odd rounds), each under callgrind for N and 2N iterations.
func countAll(ctx context.Context, opts Options, cg *callgrind, sides [2]*side, names [2]string) (*Result, error) {
	var found [2]map[string]sample
	var order [2][]string
	for i, s := range sides {
		bt := opts.benchtime()
		out, err := s.invoke(ctx, 0, []string{"-test.run", "^$", "-test.bench", opts.Bench, "-test.count", "1", "-test.benchtime", bt})
		if err != nil {
			return nil, fmt.Errorf("ab: %s, finding the benchmarks: %w", s.label(names[i]), err)
		}
		if found[i], order[i], err = parseOutput(out); err != nil {
			return nil, err
		}
	}
	if len(found[0]) == 0 && len(found[1]) == 0 {
		return nil, fmt.Errorf("ab: %w -bench %q in %s at %s or %s", ErrNoBenchmarks, opts.Bench, opts.Package, sides[0].rev, sides[1].rev)
	}
	var common []string
	iters := map[string]int{}
	for _, n := range order[0] {
		if _, ok := found[1][n]; ok {
			common = append(common, n)
			iters[n] = opts.Iterations
			if iters[n] == 0 {
				iters[n] = countedIterations(found[0][n].ns, opts.Benchtime.Nanoseconds())
			}
		}
	}
	rounds := make([][2]map[string]sample, opts.Rounds)
	done, total := 0, 2*opts.Rounds*len(common)
	for r := range rounds {
		rounds[r] = [2]map[string]sample{{}, {}}
		turn := []int{0, 1} // A B
		if r%2 == 1 {
			turn = []int{1, 0} // B A
		}
		for _, name := range common {
			for _, i := range turn {
				s, err := countOne(ctx, cg, sides[i], name, iters[name])
				if err != nil {
					if ctx.Err() != nil {
						return nil, ctx.Err()
					}
					return nil, fmt.Errorf("ab: %s, round %d, %s: %w", sides[i].label(names[i]), r+1, name, err)
				}
				rounds[r][i][name] = s
				done++
				opts.progress(Progress{Runs: done, RunsLeft: total - done, Benchmarks: len(common)})
			}
		}
	}
	res := analyse(opts, rounds, order)
	for i := range res.Benchmarks {
		res.Benchmarks[i].Iterations = iters[res.Benchmarks[i].Name]
	}
	return res, nil
}

// countOne counts benchmark name of side s under callgrind for n and 2n
// iterations and returns its instructions per operation with the B/op and
// allocs/op of the longer run.
func countOne(ctx context.Context, cg *callgrind, s *side, name string, n int) (sample, error) {
	var counts [2]int64
	var out []byte
	for k, iters := range [2]int{n, 2 * n} {
		args := []string{"-test.run", "^$", "-test.bench", benchRegexp(name), "-test.benchmem",
			"-test.count", "1", "-test.benchtime", fmt.Sprintf("%dx", iters)}
		c, o, err := cg.count(ctx, s.bins[0], s.pkg, args)
		if err != nil {
			return sample{}, err
		}
		counts[k], out = c, o
	}
	m, _, err := parseOutput(out)
	if err != nil {
		return sample{}, err
	}
	if len(m) != 1 {
		return sample{}, fmt.Errorf("-test.bench %s ran %d benchmarks under callgrind, want 1", benchRegexp(name), len(m))
	}
	var smp sample
	for _, v := range m {
		smp = v
	}
	if smp.instr, err = perOp(counts[0], counts[1], n); err != nil {
		return sample{}, err
	}
	return smp, nil
}

// interrupted is Run's error when ctx ended first.
func interrupted(ctx context.Context) error {
	return fmt.Errorf("ab: interrupted: %w", context.Cause(ctx))
}
