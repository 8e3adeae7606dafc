package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/serbench/serbench/report"
)

func init() {
	register("compare", "compare two result files (json or benchfmt) cell by cell", cmdCompare)
}

func cmdCompare(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		format = fs.String("format", "table", "output format: "+strings.Join(report.CompareFormats, ", "))
		out    = fs.String("o", "", "write the output to this file instead of standard output")
		alpha  = fs.Float64("alpha", report.DefaultAlpha, "significance level: a change with p > alpha is shown as ~")
	)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench compare [flags] OLD NEW")
		fmt.Fprintln(stderr, "OLD and NEW are files written by serbench run -format json or -format benchfmt,")
		fmt.Fprintln(stderr, "or go test -bench output of benchmarks written with github.com/serbench/serbench.")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args, 2, "two files, OLD and NEW"); help || err != nil {
		return err
	}
	if !contains(report.CompareFormats, *format) {
		return fmt.Errorf("unknown format %q (valid: %s)", *format, strings.Join(report.CompareFormats, ", "))
	}
	oldPath, newPath := fs.Arg(0), fs.Arg(1)
	oldDoc, err := report.ReadFile(oldPath)
	if err != nil {
		return err
	}
	newDoc, err := report.ReadFile(newPath)
	if err != nil {
		return err
	}
	for _, w := range append(oldDoc.Warnings, newDoc.Warnings...) {
		fmt.Fprintf(stderr, "serbench: warning: %s\n", w)
	}
	c, err := report.Compare(oldDoc, newDoc, report.CompareOptions{Alpha: *alpha, OldName: oldPath, NewName: newPath})
	if err != nil {
		return err
	}
	w, commit, err := openOutput(stdout, *out)
	if err != nil {
		return err
	}
	defer commit(false)
	if err := report.WriteComparison(w, *format, c); err != nil {
		return fmt.Errorf("write %s: %w", outName(*out), err)
	}
	return commit(true)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
