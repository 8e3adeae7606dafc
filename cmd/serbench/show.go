package main

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/internal/regfile"
	"github.com/serbench/serbench/load"
	"github.com/serbench/serbench/plan"
	"github.com/serbench/serbench/report"
)

func init() {
	register("show", "print a saved result file (json or benchfmt) in another format", cmdShow)
}

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
	path := fs.Arg(0)
	data, err := readResultsFile(path)
	if err != nil {
		return err
	}
	if schema, err := document.SchemaOf(data); err == nil && schema == document.Load {
		return showTransport(stdout, path, data, *format, *out)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	doc, err := report.Read(bytes.NewReader(data), path)
	if err != nil {
		return err
	}
	if doc.Calculator, err = plan.NewCalculator(doc); err != nil {
		return err
	}
	for _, w := range doc.Warnings {
		fmt.Fprintf(stderr, "serbench: warning: %s\n", w)
	}
	return writeOutput(stdout, *out, func(w io.Writer) error { return report.Write(w, *format, doc) })
}

// readResultsFile reads path, up to report.MaxReadBytes (more is
// report.ErrTooLarge); a path that is not a regular file (a FIFO, a
// device) is refused before reading (regfile.ErrNotRegular).
func readResultsFile(path string) ([]byte, error) {
	f, err := regfile.Open(path, true)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, report.MaxReadBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > report.MaxReadBytes {
		return nil, fmt.Errorf("%w (%d bytes): %s", report.ErrTooLarge, report.MaxReadBytes, path)
	}
	return data, nil
}

// showTransport prints data, a serbench load JSON document read from
// path, as a table (or JSON).
func showTransport(stdout io.Writer, path string, data []byte, format, out string) error {
	if format != "table" && format != "json" {
		return fmt.Errorf("show: %s holds serbench load results, which print as table or json (not %q)", path, format)
	}
	rep, err := load.ReadReport(bytes.NewReader(data), path)
	if err != nil {
		return err
	}
	return writeOutput(stdout, out, func(w io.Writer) error { return load.Write(w, format, rep) })
}
