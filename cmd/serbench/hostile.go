package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/scenario"
)

func init() {
	register("hostile", "feed every decoder malformed input in a guarded child process and report panics, hangs and allocation bombs", cmdHostile)
}

func cmdHostile(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("hostile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		codecsFlag    = codecsFlag(fs, "", codecsUsage, resolveCodecs)
		scenariosFlag = fs.String("scenarios", "", "comma-separated seed scenario IDs (default: all five)")
		format        = formatFlag(fs, "table", hostile.Formats, "")
		out           = outputFlag(fs, "write the output to this file instead of standard output (replaced only when the run succeeds)")
		seed          = fs.Uint64("seed", 1, "seed of the random bit flips")
		flips         = fs.Int("flips", hostile.DefaultFlips, "bit-flip inputs per (codec, scenario)")
		depth         = fs.Int("depth", hostile.DefaultDepth, "nesting depth of the nested-array inputs (JSON, CBOR, MessagePack)")
		timeLimit     = fs.Duration("time-limit", hostile.DefaultTime, "time one input may take before the child is killed")
		memLimit      = fs.Int64("mem-limit", hostile.DefaultMemory>>20, "memory limit of a child in MiB (debug.SetMemoryLimit, and RLIMIT_DATA on Linux)")
		stackLimit    = fs.Int64("stack-limit", hostile.DefaultStack>>20, "largest goroutine stack of a child in MiB (Go's default is 1024)")
		maxKills      = fs.Int("max-kills", hostile.DefaultMaxKills, "inputs of one (codec, scenario) that may kill a child before the rest are skipped")
		save          = fs.String("save", "", "write the first input of each finding into this folder, as <codec>_<scenario>_<input>.bin")
	)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench hostile [flags]")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	if *flips < 0 {
		return usagef("invalid -flips %d (must be at least 0)", *flips)
	}
	if *depth < 1 {
		return usagef("invalid -depth %d (must be at least 1)", *depth)
	}
	if *timeLimit <= 0 {
		return usagef("invalid -time-limit %v (must be positive)", *timeLimit)
	}
	if *maxKills < 1 {
		return usagef("invalid -max-kills %d (must be at least 1)", *maxKills)
	}
	limits, err := hostile.Limits{Time: *timeLimit, Memory: *memLimit << 20, Stack: *stackLimit << 20, MaxKills: *maxKills}.Effective()
	if err != nil {
		return err
	}
	codecs, err := selectCodecs(*codecsFlag)
	if err != nil {
		return err
	}
	scenarios, err := pickScenarios(scenario.Seeds(), *scenariosFlag)
	if err != nil {
		return err
	}
	if *save != "" {
		if err := os.MkdirAll(*save, 0o755); err != nil {
			return fmt.Errorf("-save %s: %w", *save, err)
		}
	}
	w, commit, err := openOutput(stdout, *out)
	if err != nil {
		return err
	}
	defer commit(false)

	started := time.Now()
	e := env.Collect(started, moduleVersions(codecs))
	e.Settings = settings(fs)
	opts := hostile.RunOptions{
		Codecs:    codecs,
		Scenarios: scenarios,
		Limits:    limits,
		Gen:       hostile.GenOptions{Seed: *seed, Flips: *flips, Depth: *depth},
		Progress: func(id string, i, n int) {
			fmt.Fprintf(stderr, "serbench: hostile: %s (%d/%d), %v elapsed\n", id, i, n, time.Since(started).Round(time.Second))
		},
	}
	if *flips == 0 {
		opts.Gen.Flips = -1
	}
	if *save != "" {
		opts.Each = func(row hostile.Row, inputs []hostile.Input) error { return saveFindings(*save, row, inputs) }
	}
	doc, err := hostile.Run(ctx, opts)
	if err != nil {
		return err
	}
	doc.Env = e
	fmt.Fprintf(stderr, "serbench: hostile: done in %v\n", time.Since(started).Round(time.Second))
	if err := hostile.Write(w, *format, doc); err != nil {
		return fmt.Errorf("write %s: %w", outName(*out), err)
	}
	return commit(true)
}

// hostileChild serves hostile.ChildRole: the child of `serbench hostile`
// that runs one codec's decoder on malformed inputs.
func hostileChild(string) error {
	return hostile.ServeChild(hostile.Targets(all.Registry(), hostileScenarios()))
}

// saveFindings writes the input of each of row's findings into dir.
func saveFindings(dir string, row hostile.Row, inputs []hostile.Input) error {
	byName := make(map[string][]byte, len(inputs))
	for _, in := range inputs {
		byName[in.Name] = in.Data
	}
	clean := strings.NewReplacer("/", "-", "=", "-", "@", "-at-", "^", "")
	for _, f := range row.Findings {
		name := clean.Replace(row.Codec + "_" + row.Scenario + "_" + f.Input + ".bin")
		if err := os.WriteFile(filepath.Join(dir, name), byName[f.Input], 0o644); err != nil {
			return fmt.Errorf("-save: %w", err)
		}
	}
	return nil
}

// hostileScenarios are the scenarios -scenarios may name: the seeds and the
// annotation workloads.
func hostileScenarios() []scenario.Scenario {
	return append(scenario.Seeds(), scenario.Annot()...)
}
