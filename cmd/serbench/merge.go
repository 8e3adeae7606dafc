package main

import (
	"context"
	"fmt"
	"io"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/load"
)

// cmdMerge reads two or more load reports and writes one: percentiles from
// the merged HdrHistograms, counts summed, and a clock check of the runs'
// start and end times (a warning on stderr when it fails).
func cmdMerge(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("merge", stderr,
		"usage: serbench merge [flags] A.json B.json ...",
		"Each file is the output of serbench load -format json.")
	format := formatFlag(fs, "table", load.Formats, "")
	outFile := outputFlag(fs, "write the output to this file instead of stdout")
	maxSkew := fs.Duration("max-skew", load.DefaultMaxSkew, "warn when the runs' start (or end) times are further apart than this")
	if help, err := parseFlags(fs, args, -2, "two load reports or more"); help || err != nil {
		return err
	}
	if *maxSkew <= 0 {
		return usagef("merge: invalid -max-skew %v (want > 0)", *maxSkew)
	}
	// Fail on an unwritable -o before reading; an existing file is replaced
	// only when the merge succeeds.
	dst, err := openOutput(stdout, *outFile)
	if err != nil {
		return err
	}
	defer dst.discard()
	m, err := load.MergeFiles(fs.Args(), load.MergeOptions{MaxSkew: *maxSkew})
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	for _, x := range m.Warnings {
		fmt.Fprintf(stderr, "serbench: warning: %s\n", document.TerminalText(x))
	}
	return dst.write(func(w io.Writer) error { return load.WriteMerge(w, *format, m) })
}
