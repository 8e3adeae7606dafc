package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/load"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/results"
)

// cmdShow re-renders one file written by serbench run, so a run saved as
// JSON can be read as a table or an HTML report without running it again.
// A file written by serbench load -format json is shown as its table.
func cmdShow(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("show", stderr,
		"usage: serbench show [flags] FILE",
		"FILE is a file written by serbench run -format json or -format benchfmt, or the",
		"output of go test -bench for benchmarks written with github.com/serbench/serbench",
		"(or any benchmark whose sub-benchmark names carry codec=).")
	var (
		format = formatFlag(fs, "table", report.Formats, "")
		out    = outputFlag(fs, "write the output to this file instead of standard output")
	)
	if help, err := parseFlags(fs, args, 1, "one file"); help || err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	path := fs.Arg(0)
	doc, err := results.ReadFile(path)
	if errors.Is(err, results.ErrTransportResults) {
		return showTransport(stdout, path, *format, *out)
	}
	if err != nil {
		return err
	}
	for _, w := range doc.Warnings {
		fmt.Fprintf(stderr, "serbench: warning: %s\n", document.TerminalText(w))
	}
	return writeOutput(stdout, *out, func(w io.Writer) error { return writeRunFormat(w, *format, doc) })
}

// showTransport prints the serbench load JSON document at path as a table
// (or JSON).
func showTransport(stdout io.Writer, path, format, out string) error {
	if format != "table" && format != "json" {
		return fmt.Errorf("show: %s holds serbench load results, which print as table or json (not %q)", path, format)
	}
	rep, err := load.ReadReportFile(path)
	if err != nil {
		return err
	}
	return writeOutput(stdout, out, func(w io.Writer) error { return load.Write(w, format, rep) })
}
