package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/ab"
	"github.com/serbench/serbench/gate"
)

func cmdAB(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("ab", stderr,
		"usage: serbench ab -base REV [-head REV] [-bench REGEXP] [-measure time|instructions] [-rounds N] [-layouts N] [-benchtime D] [-max-regression P [-budget D]] [-alpha A] [flags] [PKG]",
		"Builds the test binary of package PKG (default .) of the git checkout at two revisions, base and head,",
		"runs them alternately (A B B A A B ...) and compares each benchmark round by round.")
	var o ab.Options
	fs.StringVar(&o.Base, "base", "", "the `revision` to compare against (required): a branch, tag, commit or anything git rev-parse takes")
	fs.StringVar(&o.Head, "head", "", "the `revision` compared with -base (default: the working tree, uncommitted changes included)")
	fs.StringVar(&o.Bench, "bench", ab.DefaultBench, "run the benchmarks matching this `regexp`, as go test -bench")
	fs.IntVar(&o.Rounds, "rounds", ab.DefaultRounds, fmt.Sprintf("`rounds` to run: each runs both builds once, A B then B A (range [%d, %d]; a change of time needs 6 or more to be significant)", ab.MinRounds, ab.MaxRounds))
	fs.IntVar(&o.Layouts, "layouts", 0, fmt.Sprintf("build each revision this many `times` with the linker's function order randomized (-ldflags=-randlayout=1..N) and rotate them over the rounds, two rounds each, so that where code lands is not read as a change (range [0, %d], at most half of -rounds; time only; 0: %d when -rounds is at least %d, half of -rounds from 8, else 1; 1: one build)", ab.MaxLayouts, ab.DefaultLayouts, 2*ab.DefaultLayouts))
	bt := parsedFlag(fs, "benchtime", benchtime{d: ab.DefaultBenchtime}, "how long each benchmark runs per run of a build: a `duration`, or Nx for N iterations (go test -benchtime)", parseBenchtime)
	bt.text = ab.DefaultBenchtime.String()
	fs.Float64Var(&o.Alpha, "alpha", ab.DefaultAlpha, "significance level (false discovery rate): a change of time with Benjamini-Hochberg q > alpha is shown as ~")
	fs.StringVar(&o.Dir, "C", "", "run in this `folder` of the checkout instead of the current one")
	fs.DurationVar(&o.Budget, "budget", 0, "with -max-regression, a time `budget` for the rounds (builds excluded): after -rounds rounds, add as many again while a benchmark is inconclusive and another batch fits (the last taking what is left), each look judged by O'Brien-Fleming-type alpha spending, the last spending what the others left, so that the error rate stays at 5% (time only; at least 2 × rounds × benchtime)")
	fs.StringVar(&o.Measure, "measure", ab.MeasureTime, "what to compare: time (ns/op) or instructions (instructions/op counted under valgrind's callgrind; then -rounds defaults to 3 and -benchtime to 10ms, the native time of the counted iterations)")
	var (
		gateFlag  = thresholdFlag(fs, "max-regression", -1, "fail (exit 1) when a benchmark's time got worse by more than this (5% or 0.05: the 95% interval of the change lies wholly beyond it, significant), or its B/op or allocs/op rose in every round; exit 3 when none did but an interval straddles it (inconclusive); one line each on standard error")
		format    = formatFlag(fs, "table", append(ab.Formats.Names(), "comment"), "comment: a pull request comment, judged by -max-regression")
		out       = outputFlag(fs, "write the comparison to this file instead of standard output")
		bmfOut    = fs.String("bmf", "", "also write the head side in the Bencher Metric Format (JSON) to this `file`")
		tolerance = thresholdFlag(fs, "tolerance", 0, "with -measure instructions, the change of instructions/op taken for run-to-run variation (default 1%): a change counts when every round is beyond it")
		features  = fs.Bool("cpu-features", false, "print the CPU features this process sees (golang.org/x/sys/cpu) and exit: what -measure instructions runs under valgrind")
	)
	if help, err := parseFlagsArgs(fs, args, 0, 1, "at most one package, PKG"); help || err != nil {
		return err
	}
	if *features {
		_, err := fmt.Fprintln(stdout, strings.Join(ab.CPUFeatures(), " "))
		return err
	}
	if o.Base == "" {
		return usagef("ab: -base is required: the revision to compare against (see serbench ab -h)")
	}
	o.Package, o.Benchtime, o.Iterations = fs.Arg(0), bt.v.d, bt.v.iterations
	maxRegression := gateFlag.v
	if *format == "comment" && maxRegression < 0 {
		return usagef("ab: -format comment needs -max-regression: the gate its verdict is about")
	}
	if tolerance.text != "" && o.Measure != ab.MeasureInstructions {
		return usagef("ab: -tolerance applies to -measure instructions only")
	}
	o.Tolerance = tolerance.v
	if o.Budget != 0 && maxRegression < 0 {
		return usagef("ab: -budget needs -max-regression: the gate it samples until it can decide")
	}
	o.MaxRegression = max(maxRegression, 0)
	if o.Measure == ab.MeasureInstructions {
		// Their defaults differ: leave what was not given to ab.
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["rounds"] {
			o.Rounds = 0
		}
		if !set["benchtime"] {
			o.Benchtime = 0
		}
		// The probe is serbench itself; a test binary (this code under
		// go test) would run its tests instead.
		if exe, err := os.Executable(); err == nil && !testing.Testing() {
			o.Probe = []string{exe, "ab", "-cpu-features"}
		}
	}
	if _, err := o.Resolved(); err != nil {
		return abUsageError(err, bt.text)
	}
	dst, err := openOutput(stdout, *out)
	if err != nil {
		return err
	}
	defer dst.discard()
	var bmf *output
	if *bmfOut != "" {
		if bmf, err = openOutput(nil, *bmfOut); err != nil {
			return fmt.Errorf("-bmf: %w", err)
		}
		defer bmf.discard()
	}
	p := newProgress(stderr, time.Now(), "")
	o.Building = func(side string, layout, layouts, done, total int) {
		what := "the test binary of " + side
		if layouts > 1 {
			what += fmt.Sprintf(", code layout %d of %d", layout, layouts)
		}
		p.report(stage{phase: "building", counts: fmt.Sprintf("%s (build %d of %d)", what, done+1, total), done: done, left: total - done})
	}
	o.Progress = func(ap ab.Progress) {
		if p.budget == 0 && o.Budget > 0 {
			// The budget is of the rounds, which begin after the builds.
			p.budget, p.budgetStart = o.Budget, time.Now()
		}
		p.report(abStage(ap, o.Budget > 0))
	}
	res, err := ab.Run(ctx, o)
	p.finish()
	if err != nil {
		return err
	}
	for _, warn := range res.Warnings {
		fmt.Fprintf(stderr, "serbench: warning: %s\n", warn)
	}
	if *format == "comment" {
		err = ab.WriteComment(dst.w, res, maxRegression)
	} else {
		err = ab.Write(dst.w, *format, res)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", outName(*out), err)
	}
	if bmf != nil {
		if err := bmf.write(func(w io.Writer) error { return ab.Write(w, "bmf", res) }); err != nil {
			return err
		}
	}
	if err := dst.commit(); err != nil {
		return err
	}
	if maxRegression < 0 {
		return nil
	}
	sorted := gate.Sort(ab.Figures(res, maxRegression))
	return gateOutcome(stderr, lines(sorted.Regressed), lines(sorted.Inconclusive),
		func() string {
			return fmt.Sprintf("ab: %d benchmark figures worse at head: %s, or B/op or allocs/op higher in every round",
				len(sorted.Regressed), ab.GateText(res, maxRegression))
		},
		func() string {
			return fmt.Sprintf("ab: %d of %d benchmarks inconclusive at %s, none worse: the run could not tell whether they got worse by more than that",
				len(sorted.Inconclusive), len(res.Benchmarks), gateFlag.text)
		})
}

// benchtime is ab's -benchtime: a duration or Nx (ab.ParseBenchtime).
type benchtime struct {
	d          time.Duration
	iterations int
}

func parseBenchtime(s string) (b benchtime, err error) {
	b.d, b.iterations, err = ab.ParseBenchtime(s)
	return b, err
}

// abUsageError words an *ab.OptionError by the flag that set the field.
func abUsageError(err error, benchtime string) error {
	var oe *ab.OptionError
	if !errors.As(err, &oe) {
		return err
	}
	name, value := "-"+strings.ToLower(oe.Field), fmt.Sprint(oe.Value)
	switch oe.Field {
	case "Package":
		name = "PKG"
	case "Benchtime", "Iterations":
		name, value = "-benchtime", benchtime
	}
	return usagef("ab: %s %s: %s", name, value, oe.Want)
}

// abStage is the progress line's stage of ab's rounds: "measuring: 3/12
// benchmarks decided, 16/40 test binary runs"; the benchmarks decided
// are counted only when the run is sequential (budgeted) and until the
// first round ends there is no count of benchmarks.
func abStage(ap ab.Progress, sequential bool) stage {
	counts := fmt.Sprintf("%d/%d test binary runs", ap.Runs, ap.Runs+ap.RunsLeft)
	switch {
	case ap.Benchmarks > 0 && sequential:
		counts = fmt.Sprintf("%d/%d benchmarks decided, ", ap.Decided, ap.Benchmarks) + counts
	case ap.Benchmarks > 0:
		counts = fmt.Sprintf("%d benchmarks, ", ap.Benchmarks) + counts
	}
	return stage{phase: "measuring", counts: counts, done: ap.Runs, left: ap.RunsLeft}
}
