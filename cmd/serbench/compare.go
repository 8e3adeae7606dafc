package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/report"
)

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
		alpha  = fs.Float64("alpha", compare.DefaultAlpha, "significance level (false discovery rate): a change with Benjamini-Hochberg q > alpha is shown as ~")
		gate   = thresholdFlag(fs, "max-regression", -1, "fail (exit 1) when a cell got worse than this (5% or 0.05): its time (by -by; the 95% interval of the change wholly beyond it, significant), B/op, allocs/op, size, or a lost round trip; exit 3 when none did but a change of time is inconclusive (its interval straddles it); one line per cell on standard error")
		by     = &choiceValue{what: "-by", value: compare.BySpeedup, valid: compare.CompareBys}
		envOK  = fs.Bool("allow-env-diff", false, "compare runs whose CPU, CPU count, OS, architecture, Go version, encoding/json engine, GOEXPERIMENT or baseline differ (-max-regression refuses them, exit 2)")
	)
	fs.Var(by, "by", "what a cell's time is compared by: speedup (its speed-up over the run's encoding/json, which cancels a change of the machine's speed between runs; encoding/json's own cells by ns/op normalised by the calibration loop) or ns (raw ns/op, as benchstat)")
	if help, err := parseFlags(fs, args, -2, "at least two files, OLD and NEW"); help || err != nil {
		return err
	}
	if !(*alpha > 0 && *alpha < 1) {
		return usagef("compare: invalid -alpha %v (range is (0, 1))", *alpha)
	}
	maxRegression := gate.v
	set, err := compare.CompareFiles(ctx, fs.Args(), compare.CompareFilesOptions{Alpha: *alpha, By: by.value, StrictEnv: maxRegression >= 0 && !*envOK})
	for _, w := range set.Warnings {
		fmt.Fprintf(stderr, "serbench: warning: %s\n", document.TerminalText(w))
	}
	for _, d := range set.EnvDiffs {
		fmt.Fprintf(stderr, "serbench: warning: compare: %s; compared anyway\n", document.TerminalText(d.Error()))
	}
	switch {
	case errors.As(err, new(*compare.EnvDiffError)):
		return usagef("compare: %v; -allow-env-diff compares them anyway", err)
	case errors.Is(err, compare.ErrEmptyName):
		return usagef("compare: %v", err)
	case err != nil:
		return err
	}
	cs := set.Comparisons
	if maxRegression >= 0 {
		if err := compare.ApplyGate(cs, maxRegression); err != nil {
			return err
		}
		for _, c := range cs {
			if compare.OneProcess(c) {
				fmt.Fprintf(stderr, "serbench: warning: compare: %s and %s are one process a side: the gate cannot see how far a cell moves between processes of the same build (sonic: up to ±10%%), so a change of time beyond the threshold reads inconclusive, not regressed; run -processes 3 for each run, or give three runs a side\n", c.OldName, c.NewName)
			}
		}
	}
	if err := writeOutput(stdout, *out, func(w io.Writer) error { return report.WriteComparison(w, *format, cs...) }); err != nil {
		return err
	}
	if maxRegression < 0 {
		return nil
	}
	regs, err := compare.RegressionLines(cs, maxRegression)
	if err != nil {
		return err
	}
	unsure, err := compare.InconclusiveLines(cs, maxRegression)
	if err != nil {
		return err
	}
	return gateOutcome(stderr, regs, unsure,
		func() string {
			return fmt.Sprintf("compare: %d cell metrics worse by more than %s (the 95%% interval of time beyond it, significant after %s at alpha %v)", len(regs), gate.text, compare.Correction, cs[0].Alpha)
		},
		func() string {
			return fmt.Sprintf("compare: %d cells inconclusive at %s, none worse: the runs could not tell whether they got worse by more than that", len(unsure), gate.text)
		})
}
