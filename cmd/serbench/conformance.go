package main

import (
	"context"
	"io"
	"strings"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/conformance"
)

func cmdConformance(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("conformance", stderr,
		"usage: serbench conformance [flags]",
		"Runs the conformance suites built into serbench against the codecs they apply to.")
	var (
		codecsFlag = codecsFlag(fs, "", "comma-separated codec IDs and groups (see serbench run -h; default: every codec a suite applies to)", resolveCodecs)
		suitesFlag = fs.String("suites", "", "comma-separated suites (default: all): "+strings.Join(conformance.Suites, ", "))
		format     = formatFlag(fs, "table", conformance.Formats, "")
		out        = outputFlag(fs, "write the output to this file instead of standard output")
		verbose    = fs.Bool("v", false, "list every miss and every reported outcome (json always has them)")
	)
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	o := conformance.ReportOptions{Options: conformance.Options{Suites: splitList(*suitesFlag)}, Env: envFunc(fs)}
	if err := o.Validate(); err != nil {
		return usageError{err}
	}
	o.Codecs = codecsFlag.ids
	rep, err := conformance.NewReport(ctx, all.Registry().All(), o)
	if err != nil {
		return err
	}
	return writeOutput(stdout, *out, func(w io.Writer) error { return conformance.Write(w, *format, rep, *verbose) })
}
