package main

import (
	"context"
	"io"
	"strings"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/evolve"
)

func cmdEvolve(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("evolve", stderr, "usage: serbench evolve [flags]")
	var (
		codecsFlag  = codecsFlag(fs, "", "comma-separated codec IDs (default: every row of the matrix)", evolveCodecs)
		changesFlag = fs.String("changes", "", "comma-separated change IDs (default: all): "+strings.Join(evolve.ChangeIDs(), ", "))
		format      = formatFlag(fs, "table", evolve.Formats, "")
		out         = outputFlag(fs, "write the output to this file instead of standard output (replaced only when the run succeeds)")
	)
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	o := evolve.Options{Registry: all.Registry(), Codecs: codecsFlag.ids, Changes: splitList(*changesFlag), Env: envFunc(fs)}
	if err := o.Validate(); err != nil {
		return usageError{err}
	}
	doc, err := evolve.NewReport(o)
	if err != nil {
		return err
	}
	return writeOutput(stdout, *out, func(w io.Writer) error { return evolve.Write(w, *format, doc) })
}
