package main

import (
	"context"
	"fmt"
	"io"

	"github.com/serbench/serbench/archive"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/site"
)

// cmdSite reads every ARCHIVE (a folder of archive add, or one run file)
// and writes the explorer to -o.
func cmdSite(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("site", stderr,
		"usage: serbench site -o DIR ARCHIVE...",
		"Each ARCHIVE is a results archive folder (serbench archive add) or one run file (run -format json).",
		"DIR gets index.html, site.js and data.js: open index.html from disk or serve the folder as it is.",
		"A file of an archive folder that is not a plausible run is skipped and named; the site is built from the rest.")
	out := fs.String("o", "", "the folder to write the site to (required; replaced whole, only when it is a previous site or empty)")
	if help, err := parseFlags(fs, args, -1, "at least one ARCHIVE"); help || err != nil {
		return err
	}
	if *out == "" {
		return usagef("site: -o DIR is required")
	}
	runs, bad, err := archive.Gather(ctx, fs.Args())
	for _, e := range bad {
		fmt.Fprintf(stderr, "serbench: site: skipped %s\n", document.TerminalText(e.Error()))
	}
	if err != nil {
		return fmt.Errorf("site: %w", err)
	}
	data, err := site.Build(ctx, runs)
	if err != nil {
		return err
	}
	if err := site.Write(*out, data); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "serbench: wrote %s/index.html (%d runs, %d codecs, %d scenarios)\n", *out, len(data.Runs), len(data.Codecs), len(data.Scenarios))
	if len(bad) > 0 {
		fmt.Fprintf(stderr, "serbench: site: %d files skipped (named above)\n", len(bad))
	}
	return nil
}
