package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/serbench/serbench/rundoc"
)

// processRole is the childproc role of one process of run -processes: its
// argument is the JSON array of the run flags it takes.
const processRole = "run-process"

// processesIncompatible are the run flags that -processes does not take:
// -go and -mod have workers of their own, and profiles would be written once per
// process into the same files.
var processesIncompatible = []string{"go", "mod", "cpuprofile", "memprofile"}

// processesDropped are the run flags the parent keeps to itself: the
// processes write JSON to a file of their own, the parent writes the
// merged run and archives it, and -max-time is shared out.
var processesDropped = []string{"processes", "o", "format", "archive", "max-time"}

// runProcesses is serbench run -processes N: the run, split over n
// processes of this program started one after the other, each with the
// run flags in set (its share of -max-time when adaptive), merged into one
// run document (rundoc.Processes), written in format to out and archived
// in archiveDir as run would.
func runProcesses(ctx context.Context, stdout, stderr io.Writer, fs *flag.FlagSet, set map[string]bool, n int, adaptive bool, maxTime time.Duration, format, out, archiveDir string) error {
	for _, f := range processesIncompatible {
		if set[f] {
			return usagef("-processes does not combine with -%s", f)
		}
	}
	dst, err := openOutput(stdout, out)
	if err != nil {
		return err
	}
	defer dst.discard()
	var common []string
	fs.Visit(func(f *flag.Flag) {
		if !slices.Contains(processesDropped, f.Name) {
			common = append(common, "-"+f.Name+"="+f.Value.String())
		}
	})
	if adaptive {
		common = append(common, "-max-time="+(maxTime/time.Duration(n)).String())
	}
	doc, err := rundoc.Processes(ctx, rundoc.ProcessOptions{
		N: n, Role: processRole, Output: stderr, Settings: settings(fs),
		Args:    func(path string) []string { return append(slices.Clone(common), "-format=json", "-o="+path) },
		Started: func(i, n int) { fmt.Fprintf(stderr, "serbench: process %d of %d\n", i, n) },
	})
	if err != nil {
		return err
	}
	return writeRun(ctx, dst, stderr, doc, format, archiveDir)
}

// runProcessChild serves processRole: one process of run -processes, the
// run subcommand with the flags in args (a JSON array).
func runProcessChild(arg string) error {
	var args []string
	if err := json.Unmarshal([]byte(arg), &args); err != nil {
		return fmt.Errorf("run-process: flags %q: %w", arg, err)
	}
	ctx, stop := interruptible(context.Background())
	defer stop()
	return runCommand{builder: checkoutBuilder}.run(ctx, os.Stdout, os.Stderr, args)
}
