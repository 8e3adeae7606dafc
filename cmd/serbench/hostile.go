package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/scenario"
)

func cmdHostile(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("hostile", stderr, "usage: serbench hostile [flags]")
	opts := hostile.RunOptions{Env: envFunc(fs)}
	gen, lim := &opts.Gen, &opts.Limits
	var (
		codecsFlag    = codecsFlag(fs, "", codecsUsage, resolveCodecs)
		scenariosFlag = fs.String("scenarios", "", "comma-separated seed scenario IDs (default: all five)")
		format        = formatFlag(fs, "table", hostile.Formats, "")
		out           = outputFlag(fs, "write the output to this file instead of standard output (replaced only when the run succeeds)")
		memLimit      = fs.Int64("mem-limit", hostile.DefaultMemory>>20, "memory limit of a child in MiB (debug.SetMemoryLimit, and RLIMIT_DATA on Linux)")
		stackLimit    = fs.Int64("stack-limit", hostile.DefaultStack>>20, "largest goroutine stack of a child in MiB (Go's default is 1024)")
	)
	fs.Uint64Var(&gen.Seed, "seed", 1, "seed of the random bit flips")
	fs.IntVar(&gen.Flips, "flips", hostile.DefaultFlips, "bit-flip inputs per (codec, scenario)")
	fs.IntVar(&gen.Depth, "depth", hostile.DefaultDepth, "nesting depth of the nested-array inputs (JSON, CBOR, MessagePack)")
	fs.IntVar(&gen.Fanout, "fanout", hostile.DefaultFanout, "references to one object in the amplification inputs (FlatBuffers, Cap'n Proto shared offsets; 0: none)")
	fs.DurationVar(&lim.Time, "time-limit", hostile.DefaultTime, "time one input may take before the child is killed")
	fs.IntVar(&lim.MaxKills, "max-kills", hostile.DefaultMaxKills, "inputs of one (codec, scenario) that may kill a child before the rest are skipped")
	fs.StringVar(&opts.Save, "save", "", "write the first input of each finding into this folder, as <codec>_<scenario>_<input>.bin")
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	// Zero means the default to package hostile: refuse it here.
	switch {
	case gen.Flips < 0:
		return usagef("invalid -flips %d (must be at least 0)", gen.Flips)
	case gen.Depth < 1:
		return usagef("invalid -depth %d (must be at least 1)", gen.Depth)
	case lim.Time <= 0:
		return usagef("invalid -time-limit %v (must be positive)", lim.Time)
	case lim.MaxKills < 1:
		return usagef("invalid -max-kills %d (must be at least 1)", lim.MaxKills)
	case gen.Fanout < 0:
		return usagef("invalid -fanout %d (must be at least 0)", gen.Fanout)
	}
	if gen.Flips == 0 {
		gen.Flips = -1 // none
	}
	if gen.Fanout == 0 {
		gen.Fanout = -1 // none
	}
	lim.Memory, lim.Stack = *memLimit<<20, *stackLimit<<20
	var err error
	if opts.Codecs, err = selectCodecs(codecsFlag.ids); err != nil {
		return err
	}
	if opts.Scenarios, err = scenario.Pick(scenario.Seeds(), splitList(*scenariosFlag)); err != nil {
		return usageError{err}
	}
	if err := opts.Validate(); err != nil {
		return usageError{err}
	}
	started := time.Now()
	opts.Progress = func(id string, i, n int) {
		fmt.Fprintf(stderr, "serbench: hostile: %s (%d/%d), %v elapsed\n", id, i, n, time.Since(started).Round(time.Second))
	}
	dst, err := openOutput(stdout, *out)
	if err != nil {
		return err
	}
	defer dst.discard()
	doc, err := hostile.Run(ctx, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "serbench: hostile: done in %v\n", time.Since(started).Round(time.Second))
	return dst.write(func(w io.Writer) error { return hostile.Write(w, *format, doc) })
}

// hostileChild serves hostile.ChildRole: the child of `serbench hostile`
// that runs one codec's decoder on malformed inputs.
func hostileChild(string) error {
	return hostile.ServeChild(hostile.Targets(all.Registry(), hostileScenarios()))
}

// hostileScenarios are the scenarios -scenarios may name: the seeds and the
// annotation workloads.
func hostileScenarios() []scenario.Scenario {
	return append(scenario.Seeds(), scenario.Annot()...)
}
