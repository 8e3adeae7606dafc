package ab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
// benchmark matching (ErrNoBenchmarks, wrapped); ctx's error when ctx ends
// first. The worktrees Run makes are removed before it returns, whatever
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
		s.bin = filepath.Join(tmp, names[i]+".test")
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
	for i, s := range sides {
		if err := s.build(ctx, opts.Package); err != nil {
			if ctx.Err() != nil {
				return nil, interrupted(ctx)
			}
			return nil, fmt.Errorf("ab: %s: %w", s.label(names[i]), err)
		}
	}

	args := []string{"-test.run", "^$", "-test.bench", opts.Bench, "-test.benchmem",
		"-test.count", "1", "-test.benchtime", opts.benchtime()}
	outs := [2][][]byte{}
	total := 2 * opts.Rounds
	for r := range opts.Rounds {
		order := []int{0, 1} // A B
		if r%2 == 1 {
			order = []int{1, 0} // B A
		}
		for _, i := range order {
			out, err := sides[i].invoke(ctx, args)
			if err != nil {
				if ctx.Err() != nil {
					return nil, interrupted(ctx)
				}
				return nil, fmt.Errorf("ab: %s, round %d: %w", sides[i].label(names[i]), r+1, err)
			}
			outs[i] = append(outs[i], out)
			if opts.Progress != nil {
				opts.Progress(len(outs[0])+len(outs[1]), total)
			}
		}
		if r == 0 && !hasBenchmarks(outs[0][0]) && !hasBenchmarks(outs[1][0]) {
			return nil, fmt.Errorf("ab: %w -bench %q in %s at %s or %s", ErrNoBenchmarks, opts.Bench, opts.Package, base, head)
		}
	}
	res, err = analyze(opts, outs[0], outs[1])
	if err != nil {
		return nil, err
	}
	res.Base, res.Head = base, head
	return res, nil
}

// interrupted is Run's error when ctx ended first.
func interrupted(ctx context.Context) error {
	return fmt.Errorf("ab: interrupted: %w", context.Cause(ctx))
}
