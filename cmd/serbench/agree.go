package main

import (
	"context"
	"io"

	"github.com/serbench/serbench/export"
)

// cmdAgree reads pairs of files, each a serbench run (JSON or benchfmt) and
// the go test output of `serbench export`'s module taken under the same GC
// condition, and prints how far each cell's speed-up over encoding/json
// differs between the two (export.WriteAgreement, export.WriteAgreementByCodec).
func cmdAgree(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("agree", stderr,
		"usage: serbench agree [flags] SERBENCH EXPORT [SERBENCH EXPORT ...]",
		"Each pair: a serbench run (-format json or benchfmt) and the go test -bench output of the serbench export module, taken under the same -live-heap.")
	tolerance := percentFlag(fs, "tolerance", export.DefaultAgreeTolerance, "a cell agrees when serbench's speed-up is within this of the plain loop's")
	format := formatFlag(fs, "table", []string{"table", "markdown"}, "")
	all := fs.Bool("all", false, "list every cell, not only those beyond the tolerance")
	bycodec := fs.Bool("by-codec", false, "print one row per codec, the conditions side by side (cells within the tolerance, median absolute and worst Δ of each), and nothing else")
	if help, err := parseFlags(fs, args, -2, "pairs of files: SERBENCH EXPORT"); help || err != nil {
		return err
	}
	if fs.NArg()%2 != 0 {
		return usagef("agree: want pairs of files SERBENCH EXPORT (got %d arguments)", fs.NArg())
	}
	conds, err := export.AgreeFiles(fs.Args())
	if err != nil {
		return err
	}
	if *bycodec {
		return export.WriteAgreementByCodec(stdout, conds, *tolerance, *format == "markdown")
	}
	return export.WriteAgreement(stdout, conds, *tolerance, *format == "markdown", *all)
}
