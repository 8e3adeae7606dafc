package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/ab"
	"github.com/serbench/serbench/report"
)

func init() {
	register("ab", "A/B test of your module's benchmarks at two git revisions, interleaved in one run", cmdAB)
}

func cmdAB(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("ab", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		base      = fs.String("base", "", "the `revision` to compare against (required): a branch, tag, commit or anything git rev-parse takes")
		head      = fs.String("head", "", "the `revision` compared with -base (default: the working tree, uncommitted changes included)")
		benchRe   = fs.String("bench", ab.DefaultBench, "run the benchmarks matching this `regexp`, as go test -bench")
		rounds    = fs.Int("rounds", ab.DefaultRounds, fmt.Sprintf("`rounds` to run: each runs both builds once, A B then B A (range [%d, %d]; a change of time needs 6 or more to be significant)", ab.MinRounds, ab.MaxRounds))
		benchtime = fs.String("benchtime", ab.DefaultBenchtime.String(), "how long each benchmark runs per run of a build: a `duration`, or Nx for N iterations (go test -benchtime)")
		gate      = fs.String("max-regression", "", "fail (exit 1) when a benchmark's time got significantly worse by more than this (5% or 0.05), or its B/op or allocs/op rose in every round; one line each on standard error")
		alpha     = fs.Float64("alpha", ab.DefaultAlpha, "significance level (false discovery rate): a change of time with Benjamini-Hochberg q > alpha is shown as ~")
		dir       = fs.String("C", "", "run in this `folder` of the checkout instead of the current one")
		format    = formatFlag(fs, "table", append(ab.Formats.Names(), "comment"), "comment: a pull request comment, judged by -max-regression")
		out       = outputFlag(fs, "write the comparison to this file instead of standard output")
		bmfOut    = fs.String("bmf", "", "also write the head side in the Bencher Metric Format (JSON) to this `file`")
		measure   = fs.String("measure", ab.MeasureTime, "what to compare: time (ns/op) or instructions (instructions/op counted under valgrind's callgrind; then -rounds defaults to 3 and -benchtime to 10ms, the native time of the counted iterations)")
		tolerance = fs.String("tolerance", "", "with -measure instructions, the change of instructions/op taken for run-to-run variation (default 1%): a change counts when every round is beyond it")
		features  = fs.Bool("cpu-features", false, "print the CPU features this process sees (golang.org/x/sys/cpu) and exit: what -measure instructions runs under valgrind")
	)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench ab -base REV [-head REV] [-bench REGEXP] [-measure time|instructions] [-rounds N] [-benchtime D] [-max-regression P] [-alpha A] [flags] [PKG]")
		fmt.Fprintln(stderr, "Builds the test binary of package PKG (default .) of the git checkout at two revisions, base and head,")
		fmt.Fprintln(stderr, "runs them alternately (A B B A A B ...) and compares each benchmark round by round.")
		fs.PrintDefaults()
	}
	if help, err := parseFlagsArgs(fs, args, 0, 1, "at most one package, PKG"); help || err != nil {
		return err
	}
	if *features {
		_, err := fmt.Fprintln(stdout, strings.Join(ab.CPUFeatures(), " "))
		return err
	}
	if *base == "" {
		return usagef("ab: -base is required: the revision to compare against (see serbench ab -h)")
	}
	d, iters, err := parseBenchtime(*benchtime)
	if err != nil {
		return usagef("ab: -benchtime %q: %v", *benchtime, err)
	}
	maxRegression := -1.0
	if *gate != "" {
		if maxRegression, err = report.ParseThreshold(*gate); err != nil {
			return usagef("ab: -max-regression: %v", err)
		}
	}
	if *format == "comment" && maxRegression < 0 {
		return usagef("ab: -format comment needs -max-regression: the gate its verdict is about")
	}
	tol := 0.0
	if *tolerance != "" {
		if *measure != ab.MeasureInstructions {
			return usagef("ab: -tolerance applies to -measure instructions only")
		}
		if tol, err = report.ParseThreshold(*tolerance); err != nil {
			return usagef("ab: -tolerance: %v", err)
		}
	}
	opts := ab.Options{Dir: *dir, Base: *base, Head: *head, Package: fs.Arg(0), Bench: *benchRe,
		Rounds: *rounds, Benchtime: d, Iterations: iters, Alpha: *alpha, Measure: *measure, Tolerance: tol}
	if *measure == ab.MeasureInstructions {
		// Their defaults differ: leave what was not given to ab.
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["rounds"] {
			opts.Rounds = 0
		}
		if !set["benchtime"] {
			opts.Benchtime = 0
		}
		// The probe is serbench itself; a test binary (this code under
		// go test) would run its tests instead.
		if exe, err := os.Executable(); err == nil && !testing.Testing() {
			opts.Probe = []string{exe, "ab", "-cpu-features"}
		}
	}
	if _, err := opts.Resolved(); err != nil {
		return abUsageError(err, *benchtime)
	}

	w, commit, err := openOutput(stdout, *out)
	if err != nil {
		return err
	}
	defer commit(false)
	var bmfW io.Writer
	bmfCommit := func(bool) error { return nil }
	if *bmfOut != "" {
		if bmfW, bmfCommit, err = openOutput(io.Discard, *bmfOut); err != nil {
			return fmt.Errorf("-bmf: %w", err)
		}
		defer bmfCommit(false)
	}
	p := newProgress(stderr, time.Now(), "benchmark runs")
	opts.Progress = p.update
	res, err := ab.Run(ctx, opts)
	p.finish()
	if err != nil {
		return err
	}
	for _, warn := range res.Warnings {
		fmt.Fprintf(stderr, "serbench: warning: %s\n", warn)
	}
	if *format == "comment" {
		err = ab.WriteComment(w, res, maxRegression)
	} else {
		err = ab.Write(w, *format, res)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", outName(*out), err)
	}
	if bmfW != nil {
		if err := ab.Write(bmfW, "bmf", res); err != nil {
			return fmt.Errorf("write %s: %w", *bmfOut, err)
		}
	}
	if err := errors.Join(commit(true), bmfCommit(true)); err != nil {
		return err
	}
	if maxRegression < 0 {
		return nil
	}
	regs := ab.Regressions(res, maxRegression)
	for _, r := range regs {
		if _, err := fmt.Fprintf(stderr, "regression: %s\n", r); err != nil {
			return err
		}
	}
	if len(regs) > 0 {
		return fmt.Errorf("ab: %d benchmark figures worse at head: %s, or B/op or allocs/op higher in every round",
			len(regs), ab.GateText(res, maxRegression))
	}
	return nil
}

// parseBenchtime reads -benchtime as go test does: a duration ("100ms")
// or an iteration count ("1000x").
func parseBenchtime(s string) (d time.Duration, iters int, err error) {
	if n, ok := strings.CutSuffix(s, "x"); ok {
		k, err := strconv.Atoi(n)
		if err != nil || k <= 0 {
			return 0, 0, errors.New("want a positive count of iterations such as 1000x, or a duration such as 100ms")
		}
		return 0, k, nil
	}
	d, err = time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, 0, errors.New("want a positive duration such as 100ms, or a count of iterations such as 1000x")
	}
	return d, 0, nil
}

// abUsageError words an *ab.OptionError by the flag that set the field.
func abUsageError(err error, benchtime string) error {
	var oe *ab.OptionError
	if !errors.As(err, &oe) {
		return err
	}
	flags := map[string]string{"Base": "-base", "Head": "-head", "Package": "PKG", "Bench": "-bench",
		"Rounds": "-rounds", "Benchtime": "-benchtime", "Iterations": "-benchtime", "Alpha": "-alpha",
		"Measure": "-measure", "Tolerance": "-tolerance"}
	name, ok := flags[oe.Field]
	if !ok {
		return usageError{err}
	}
	value := fmt.Sprint(oe.Value)
	if oe.Field == "Benchtime" || oe.Field == "Iterations" {
		value = benchtime
	}
	return usagef("ab: %s %s: %s", name, value, oe.Want)
}
