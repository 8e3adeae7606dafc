package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/plan"
	"github.com/serbench/serbench/report"
)

// processRole is the childproc role of one process of run -processes: its
// argument is the JSON array of the run flags it takes.
const processRole = "run-process"

func init() { childRoles[processRole] = runProcessChild }

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
// run document (bench.MergeProcesses) that records each process's figures,
// written in format to out and archived in archiveDir as run would.
func runProcesses(ctx context.Context, stdout, stderr io.Writer, fs *flag.FlagSet, set map[string]bool, n int, adaptive bool, maxTime time.Duration, format, out, archiveDir string) error {
	for _, f := range processesIncompatible {
		if set[f] {
			return usagef("-processes does not combine with -%s", f)
		}
	}
	if archiveDir != "" {
		if fi, err := os.Stat(archiveDir); err == nil && !fi.IsDir() {
			return fmt.Errorf("-archive %s: not a folder", archiveDir)
		}
	}
	w, commit, err := openOutput(stdout, out)
	if err != nil {
		return err
	}
	defer commit(false)
	dir, err := os.MkdirTemp("", "serbench-processes-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	var common []string
	fs.Visit(func(f *flag.Flag) {
		if !slices.Contains(processesDropped, f.Name) {
			common = append(common, "-"+f.Name+"="+f.Value.String())
		}
	})
	if adaptive {
		common = append(common, "-max-time="+(maxTime/time.Duration(n)).String())
	}
	docs := make([]*report.Document, n)
	for i := range n {
		path := filepath.Join(dir, fmt.Sprintf("process-%d.json", i+1))
		fmt.Fprintf(stderr, "serbench: process %d of %d\n", i+1, n)
		args, err := json.Marshal(append(slices.Clone(common), "-format=json", "-o="+path))
		if err != nil {
			return err
		}
		cmd, err := childproc.Command(ctx, "", processRole, string(args))
		if err != nil {
			return err
		}
		cmd.Stdout, cmd.Stderr = stderr, stderr
		err = childproc.Start(cmd)
		if err == nil {
			err = cmd.Wait()
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("-processes: process %d of %d failed: %w", i+1, n, err)
		}
		if docs[i], err = report.ReadFile(path); err != nil {
			return fmt.Errorf("-processes: process %d of %d: %w", i+1, n, err)
		}
	}
	doc, err := report.MergeProcesses(docs)
	if err != nil {
		return err
	}
	doc.Env.Settings = settings(fs)
	doc.Analyze()
	calc, err := plan.NewCalculator(doc)
	if err != nil {
		return err
	}
	doc.Calculator = calc
	for _, warn := range doc.Warnings {
		if out != "" || format != "table" {
			fmt.Fprintf(stderr, "serbench: warning: %s\n", warn)
		}
	}
	if err := report.Write(w, format, doc); err != nil {
		return fmt.Errorf("write %s: %w", outName(out), err)
	}
	if err := commit(true); err != nil {
		return err
	}
	if archiveDir != "" {
		return archiveRun(ctx, stderr, doc, archiveDir)
	}
	return nil
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
	return cmdRun(ctx, os.Stdout, os.Stderr, args)
}
