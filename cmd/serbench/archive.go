package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/serbench/serbench/archive"
	"github.com/serbench/serbench/document"
)

// archiveUsage is the help of serbench archive and of its actions.
var archiveUsage = []string{
	"usage: serbench archive add [-to DIR] FILE... [-to DIR]",
	"       serbench archive list DIR",
	"add stores each FILE (written by serbench run -format json) in DIR as <key>.json, the key built",
	"from its env: start time, Go version and encoding/json engine, GOOS-GOARCH, CPU, serbench version.",
	"All files are added or none; a key DIR already holds is an error. list prints DIR's runs by key,",
	"then names each file it skipped (not a regular file, too large, not a plausible run) and exits 1 if any.",
}

// cmdArchive is `serbench archive add FILE... -to DIR` and
// `serbench archive list DIR`.
func cmdArchive(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	usage := func() {
		for _, l := range archiveUsage {
			fmt.Fprintln(stderr, l)
		}
	}
	if len(args) == 0 {
		usage()
		return usagef("archive: want add or list")
	}
	switch args[0] {
	case "add":
		return archiveAdd(ctx, stdout, stderr, args[1:])
	case "list":
		return archiveList(ctx, stdout, stderr, args[1:])
	case "-h", "-help", "--help", "help":
		usage()
		return nil
	}
	return usagef("archive: unknown action %q (want add or list)", args[0])
}

// archiveAdd parses `add` arguments: -to DIR may come first or last, as
// in `serbench archive add run.json -to results`.
func archiveAdd(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	if n := len(args); n >= 2 && (args[n-2] == "-to" || args[n-2] == "--to") {
		args = append([]string{args[n-2], args[n-1]}, args[:n-2]...)
	} else if n >= 1 && (strings.HasPrefix(args[n-1], "-to=") || strings.HasPrefix(args[n-1], "--to=")) {
		args = append([]string{args[n-1]}, args[:n-1]...)
	}
	fs := newFlagSet("archive add", stderr, archiveUsage...)
	to := fs.String("to", "", "the archive folder (required; created if missing)")
	if help, err := parseFlags(fs, args, -1, "at least one FILE"); help || err != nil {
		return err
	}
	if *to == "" {
		return usagef("archive add: -to DIR is required")
	}
	written, err := archive.AddFiles(ctx, *to, fs.Args())
	for _, p := range written {
		fmt.Fprintf(stdout, "added %s\n", p)
	}
	return err
}

func archiveList(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("archive list", stderr, archiveUsage...)
	if help, err := parseFlags(fs, args, 1, "one DIR"); help || err != nil {
		return err
	}
	runs, bad, err := archive.Load(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	if err := archive.WriteList(stdout, runs); err != nil {
		return err
	}
	// The listing is the archive's check: a file it cannot read is named
	// and fails the command after the runs it can.
	for _, e := range bad {
		fmt.Fprintf(stderr, "serbench: skipped %s\n", document.TerminalText(e.Error()))
	}
	if len(bad) > 0 {
		return fmt.Errorf("archive list: %d files of %s are not runs it can hold (named above)", len(bad), fs.Arg(0))
	}
	return nil
}
