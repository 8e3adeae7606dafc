package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/serbench/serbench/report"
)

func init() {
	register("compare", "compare result files (json or benchfmt) cell by cell with the first", cmdCompare)
}

func cmdCompare(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		format = formatFlag(fs, "table", report.CompareFormats, "")
		out    = outputFlag(fs, "write the output to this file instead of standard output")
		alpha  = fs.Float64("alpha", report.DefaultAlpha, "significance level: a change with p > alpha is shown as ~")
	)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench compare [flags] OLD NEW [NEW...]")
		fmt.Fprintln(stderr, "Each file is written by serbench run -format json or -format benchfmt (or go test -bench output of")
		fmt.Fprintln(stderr, "benchmarks written with github.com/serbench/serbench); every NEW is compared with OLD.")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args, -2, "at least two files, OLD and NEW"); help || err != nil {
		return err
	}
	docs := make([]*report.Document, fs.NArg())
	for i, path := range fs.Args() {
		doc, err := report.ReadFile(path)
		if err != nil {
			return err
		}
		for _, w := range doc.Warnings {
			fmt.Fprintf(stderr, "serbench: warning: %s\n", w)
		}
		docs[i] = doc
	}
	var cs []*report.Comparison
	for i := 1; i < len(docs); i++ {
		c, err := report.Compare(docs[0], docs[i], report.CompareOptions{Alpha: *alpha, OldName: fs.Arg(0), NewName: fs.Arg(i)})
		if err != nil {
			return err
		}
		cs = append(cs, c)
	}
	w, commit, err := openOutput(stdout, *out)
	if err != nil {
		return err
	}
	defer commit(false)
	if err := report.WriteComparison(w, *format, cs...); err != nil {
		return fmt.Errorf("write %s: %w", outName(*out), err)
	}
	return commit(true)
}
