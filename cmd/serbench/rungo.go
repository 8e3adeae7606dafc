package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/toolchain"
)

// serbenchModule is the module whose ./cmd/serbench run -go builds.
const serbenchModule = "github.com/serbench/serbench"

// toolchainBuilder returns how run -go builds one serbench per toolchain:
// go build in the serbench checkout around the current directory. Tests
// replace it, so that they need no toolchain download.
var toolchainBuilder = func() (toolchain.Builder, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.Dir}}").Output()
	if err != nil {
		return nil, fmt.Errorf("-go builds serbench from its source with the go command: run it inside a checkout of %s (go list -m: %v)", serbenchModule, err)
	}
	path, dir, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if path != serbenchModule {
		return nil, fmt.Errorf("-go builds serbench from its source: run it inside a checkout of %s (the current module is %s)", serbenchModule, path)
	}
	return toolchain.GoBuilder{Dir: dir, Package: "./cmd/serbench"}, nil
}

// buildSpecs reads -go and -mod into the builds to measure: every
// toolchain of -go with every version of -mod's module. Errors are usage
// errors naming the flag (a -mod module that ./cmd/serbench does not link
// among them), except when the current folder is not in a serbench
// checkout or go list fails.
func buildSpecs(ctx context.Context, goFlag, modFlag string) ([]toolchain.Spec, error) {
	var builds []toolchain.Spec
	if goFlag != "" {
		var err error
		if builds, err = toolchain.Parse(goFlag); err != nil {
			return nil, usagef("-go: %v", err)
		}
	}
	if modFlag == "" {
		return builds, nil
	}
	mods, err := toolchain.ParseModule(modFlag)
	if err != nil {
		return nil, usagef("-mod: %v", err)
	}
	specs, err := toolchain.Cross(builds, mods)
	if err != nil {
		return nil, usagef("-go and -mod: %v", err)
	}
	p := mods[0].Path
	if p == serbenchModule {
		return nil, usagef("-mod: %s is serbench itself; -mod takes a module serbench links, such as a codec's library", p)
	}
	dir, err := serbenchCheckout(ctx)
	if err != nil {
		return nil, fmt.Errorf("-mod builds serbench from its source: %w", err)
	}
	linked, err := toolchain.Linked(ctx, dir, "./cmd/serbench")
	if err != nil {
		return nil, err
	}
	if _, ok := linked[p]; !ok {
		return nil, usagef("-mod: serbench does not link %s: ./cmd/serbench imports no package of it (serbench list names each codec's module)", p)
	}
	return specs, nil
}

// goIncompatible are the run flags that -go does not take: they act on
// one process, or on adaptive sampling, which -go replaces by rounds.
var goIncompatible = []string{"archive", "parallel", "cpuprofile", "memprofile", "sizes", "compress", "gomaxprocs", "gogc", "pin", "target", "max-time"}

// runToolchains is serbench run -go and -mod: the matrix that the run
// flags select, measured by one serbench per build (each toolchain of
// goFlag with each module version of modFlag), samples interleaved, and
// reported as ratios between the builds.
func runToolchains(ctx context.Context, stdout, stderr io.Writer, goFlag, modFlag string, set map[string]bool, cfg toolchain.Config, rounds int, format, out string) error {
	name := "-go"
	if goFlag == "" {
		name = "-mod"
	}
	for _, f := range goIncompatible {
		if set[f] {
			return usagef("%s does not combine with -%s", name, f)
		}
	}
	if !slices.Contains(toolchain.Formats, format) {
		return usagef("%s: unknown format %q (valid with %s: %s)", name, format, name, strings.Join(toolchain.Formats, ", "))
	}
	specs, err := buildSpecs(ctx, goFlag, modFlag)
	if err != nil {
		return err
	}
	builder, err := toolchainBuilder()
	if err != nil {
		return err
	}
	w, commit, err := openOutput(stdout, out)
	if err != nil {
		return err
	}
	defer commit(false)
	started := time.Now()
	progress := newProgress(stderr, started, "rounds")
	runs, err := toolchain.Measure(ctx, toolchain.Options{Specs: specs, Builder: builder, Config: cfg, Rounds: rounds, Progress: progress.update})
	progress.finish()
	for _, r := range runs {
		if r.Err != nil {
			fmt.Fprintf(stderr, "serbench: %v\n", r.Err)
		}
		for _, warn := range r.Warnings {
			if out != "" || format != "table" {
				fmt.Fprintf(stderr, "serbench: warning: %s: %s\n", r.Spec, warn)
			}
		}
	}
	if err != nil {
		if errors.Is(err, toolchain.ErrNothingRan) {
			if modFlag == "" {
				return fmt.Errorf("-go: no toolchain ran (reasons above)")
			}
			return fmt.Errorf("%s: no build ran (reasons above)", name)
		}
		return err
	}
	doc := toolchain.NewDocument(env.Collect(started, nil), cfg.Baseline, 0, runs)
	if err := toolchain.Write(w, format, doc); err != nil {
		return fmt.Errorf("write %s: %w", outName(out), err)
	}
	return commit(true)
}

// runWorker is the child role of run -go (toolchain.ChildRole): it serves
// the driver on standard input and output.
func runWorker(string) error {
	return toolchain.Serve(context.Background(), os.Stdin, os.Stdout, prepareWorker)
}

// prepareWorker selects the matrix of cfg in this build, as run does, and
// prepares it: the codecs of the IDs the driver resolved -codecs to. Codecs
// this build lacks are left out and reported (Absent); when cfg names only
// such codecs, that is the error.
func prepareWorker(ctx context.Context, cfg toolchain.Config) (toolchain.Prepared, error) {
	absent := all.Registry().Absences()
	var codecs []string // nil: the default set
	if cfg.Codecs != nil {
		var lacking []string
		for _, id := range cfg.Codecs {
			if why, ok := absent[id]; ok {
				lacking = append(lacking, why)
				continue
			}
			codecs = append(codecs, id)
		}
		if len(codecs) == 0 {
			return toolchain.Prepared{}, errors.New(strings.Join(lacking, "; "))
		}
	}
	cs, scenarios, warnings, err := selectMatrix(codecs, cfg.Scenarios, cfg.Corpus, cfg.Baseline)
	if err != nil {
		return toolchain.Prepared{}, err
	}
	s, err := bench.NewSession(ctx, cs, scenarios, bench.Options{Benchtime: cfg.Benchtime, Baseline: cfg.Baseline, LiveHeap: cfg.LiveHeap})
	if err != nil {
		return toolchain.Prepared{}, err
	}
	e := env.Collect(time.Now(), moduleVersions(cs))
	e.LiveHeap = s.LiveHeap().Env()
	return toolchain.Prepared{Session: s, Env: e, Warnings: warnings, Absent: absent}, nil
}
