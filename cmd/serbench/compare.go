package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/serbench/serbench/report"
)

func init() {
	register("compare", "compare result files (json or benchfmt) cell by cell with the first", cmdCompare)
}

func cmdCompare(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("compare", stderr,
		"usage: serbench compare [flags] OLD NEW [NEW...]",
		"Each file is written by serbench run -format json or -format benchfmt (or go test -bench output of",
		"benchmarks written with github.com/serbench/serbench); every NEW is compared with OLD. A side may be",
		"several runs of one build, comma-separated (old1.json,old2.json,old3.json): each cell is then tested",
		"between runs, so that a codec whose speed moves from process to process is not flagged for it.")
	var (
		format = formatFlag(fs, "table", report.CompareFormats, "")
		out    = outputFlag(fs, "write the output to this file instead of standard output")
		alpha  = fs.Float64("alpha", report.DefaultAlpha, "significance level (false discovery rate): a change with Benjamini-Hochberg q > alpha is shown as ~")
		gate   = fs.String("max-regression", "", "fail (exit 1) when a cell got significantly worse than this (5% or 0.05): its time (by -by), B/op, allocs/op, size, or a lost round trip; one line per cell on standard error")
		by     = fs.String("by", report.BySpeedup, "what a cell's time is compared by: speedup (its speed-up over the run's encoding/json, which cancels a change of the machine's speed between runs; encoding/json's own cells by ns/op normalised by the calibration loop) or ns (raw ns/op, as benchstat)")
		envOK  = fs.Bool("allow-env-diff", false, "compare runs whose CPU, CPU count, OS, architecture, Go version, encoding/json engine, GOEXPERIMENT or baseline differ (-max-regression refuses them, exit 2)")
	)
	if help, err := parseFlags(fs, args, -2, "at least two files, OLD and NEW"); help || err != nil {
		return err
	}
	if !(*alpha > 0 && *alpha < 1) {
		return usagef("compare: invalid -alpha %v (range is (0, 1))", *alpha)
	}
	if *by != report.BySpeedup && *by != report.ByNs {
		return usagef("compare: -by %q: want %s", *by, strings.Join(report.CompareBys, " or "))
	}
	maxRegression := -1.0
	if *gate != "" {
		v, err := report.ParseThreshold(*gate)
		if err != nil {
			return usagef("compare: -max-regression: %v", err)
		}
		maxRegression = v
	}
	// Each argument is one side: a file, or replicate runs of one build
	// as a comma-separated list of files.
	sides := make([][]*report.Document, fs.NArg())
	for i, arg := range fs.Args() {
		for _, path := range strings.Split(arg, ",") {
			if path == "" {
				return usagef("compare: %q: an empty file name in a list of replicate runs", arg)
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			doc, err := report.ReadFile(path)
			if err != nil {
				return err
			}
			for _, w := range doc.Warnings {
				fmt.Fprintf(stderr, "serbench: warning: %s\n", w)
			}
			sides[i] = append(sides[i], doc)
		}
	}
	envCheck := func(a, b string, d *report.EnvDiff) error {
		if d == nil {
			return nil
		}
		msg := fmt.Sprintf("compare: %s and %s differ in %s: runs from different machines or toolchains are not comparable", a, b, d)
		if maxRegression >= 0 && !*envOK {
			return usagef("%s; -allow-env-diff compares them anyway", msg)
		}
		fmt.Fprintf(stderr, "serbench: warning: %s; compared anyway\n", msg)
		return nil
	}
	for i, side := range sides {
		names := strings.Split(fs.Arg(i), ",")
		for j := 1; j < len(side); j++ {
			if err := envCheck(names[0], names[j], report.DiffEnv(side[0], side[j])); err != nil {
				return err
			}
		}
	}
	var cs []*report.Comparison
	for i := 1; i < len(sides); i++ {
		c, err := report.CompareRuns(sides[0], sides[i], report.CompareOptions{Alpha: *alpha, By: *by, OldName: fs.Arg(0), NewName: fs.Arg(i)})
		if err != nil {
			return err
		}
		if err := envCheck(fs.Arg(0), fs.Arg(i), c.EnvDiff); err != nil {
			return err
		}
		if len(c.Rows) == 0 {
			return fmt.Errorf("compare: %s and %s share no cell (codec, scenario, op): nothing to compare", fs.Arg(0), fs.Arg(i))
		}
		cs = append(cs, c)
	}
	if err := writeOutput(stdout, *out, func(w io.Writer) error { return report.WriteComparison(w, *format, cs...) }); err != nil {
		return err
	}
	if maxRegression < 0 {
		return nil
	}
	return checkRegressions(stderr, cs, *gate, maxRegression)
}

// checkRegressions prints one line per regressed cell of cs (see
// report.Regressions) and returns an error (exit status 1) when there is
// any.
func checkRegressions(stderr io.Writer, cs []*report.Comparison, gate string, max float64) error {
	n := 0
	for _, c := range cs {
		regs, err := report.Regressions(c, max)
		if err != nil {
			return err
		}
		for _, r := range regs {
			if _, err := fmt.Fprintf(stderr, "regression: %s: %s\n", c.NewName, r); err != nil {
				return err
			}
		}
		n += len(regs)
	}
	if n > 0 {
		return fmt.Errorf("compare: %d cell metrics worse by more than %s (significant after %s at alpha %v)", n, gate, report.Correction, cs[0].Alpha)
	}
	return nil
}
