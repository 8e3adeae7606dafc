package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/export"
	"github.com/serbench/serbench/rundoc"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/toolchain"
)

// checkoutBuilder is how run -go builds one serbench per toolchain: go
// build of ./cmd/serbench in the serbench checkout around the current
// folder (export.Checkout).
func checkoutBuilder(ctx context.Context) (toolchain.Builder, error) {
	dir, err := export.Checkout(ctx)
	if err != nil {
		return nil, fmt.Errorf("-go builds serbench from its source with the go command: %w", err)
	}
	return toolchain.GoBuilder{Dir: dir, Package: "./cmd/serbench"}, nil
}

// parseMod reads run's -mod flag: MODULE@V1,V2 (toolchain.ParseModule),
// a module other than serbench itself.
func parseMod(s string) ([]toolchain.Module, error) {
	mods, err := toolchain.ParseModule(s)
	if err != nil {
		return nil, err
	}
	if p := mods[0].Path; p == export.SerbenchModule {
		return nil, fmt.Errorf("%s is serbench itself; -mod takes a module serbench links, such as a codec's library", p)
	}
	return mods, nil
}

// buildSpecs returns the builds that -go and -mod select: every toolchain
// of goV with every version of modV's module, which ./cmd/serbench must
// link (a usage error otherwise).
func buildSpecs(ctx context.Context, goV *parsedValue[[]toolchain.Spec], modV *parsedValue[[]toolchain.Module]) ([]toolchain.Spec, error) {
	if modV.v == nil {
		return goV.v, nil
	}
	specs, err := toolchain.Cross(goV.v, modV.v)
	if err != nil {
		return nil, usagef("-go and -mod: %v", err)
	}
	dir, err := export.Checkout(ctx)
	if err != nil {
		return nil, fmt.Errorf("-mod builds serbench from its source: %w", err)
	}
	linked, err := toolchain.Linked(ctx, dir, "./cmd/serbench")
	if err != nil {
		return nil, err
	}
	if _, ok := linked[modV.v[0].Path]; !ok {
		return nil, usagef("-mod: serbench does not link %s: ./cmd/serbench imports no package of it (serbench list names each codec's module)", modV.v[0].Path)
	}
	return specs, nil
}

// goIncompatible are the run flags that -go does not take: they act on
// one process, or on adaptive sampling, which -go replaces by rounds.
var goIncompatible = []string{"archive", "parallel", "cpuprofile", "memprofile", "sizes", "compress", "gomaxprocs", "gogc", "pin", "target", "max-time"}

// toolchains is serbench run -go and -mod: the matrix that the run
// flags select, measured by one serbench per build (each toolchain of
// goV with each module version of modV), samples interleaved, and
// reported as ratios between the builds.
func (c runCommand) toolchains(ctx context.Context, stdout, stderr io.Writer, goV *parsedValue[[]toolchain.Spec], modV *parsedValue[[]toolchain.Module], set map[string]bool, cfg toolchain.Config, rounds int, format, out string) error {
	name := "-go"
	if goV.v == nil {
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
	specs, err := buildSpecs(ctx, goV, modV)
	if err != nil {
		return err
	}
	builder, err := c.builder(ctx)
	if err != nil {
		return err
	}
	dst, err := openOutput(stdout, out)
	if err != nil {
		return err
	}
	defer dst.discard()
	if n := minUTestSamples(compare.DefaultAlpha); rounds < n {
		fmt.Fprintf(stderr, "serbench: warning: %s with %d samples a build: the U-test between builds needs %d or more a side to reach p ≤ %v, so no difference can read as significant (-count %d)\n",
			name, rounds, n, compare.DefaultAlpha, n)
	}
	progress := newProgress(stderr, time.Now(), "rounds")
	doc, runs, err := toolchain.MeasureDocument(ctx, toolchain.Options{Specs: specs, Builder: builder, Config: cfg, Rounds: rounds, Progress: progress.update})
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
			if modV.v == nil {
				return fmt.Errorf("-go: no toolchain ran (reasons above)")
			}
			return fmt.Errorf("%s: no build ran (reasons above)", name)
		}
		return err
	}
	return dst.write(func(w io.Writer) error { return toolchain.Write(w, format, doc) })
}

// runWorker is the child role of run -go (toolchain.ChildRole): it serves
// the driver on standard input and output.
func runWorker(string) error {
	return toolchain.Serve(context.Background(), os.Stdin, os.Stdout, toolchain.PrepareWorker(all.Registry(), workerMatrix))
}

// workerMatrix is the toolchain.Matrix of a run -go worker: the matrix run
// would select in this build (rundoc.Selection.Matrix).
func workerMatrix(ids []string, cfg toolchain.Config) ([]codec.Codec, []scenario.Scenario, []string, error) {
	return rundoc.Selection{Registry: all.Registry(), Codecs: ids, Scenarios: cfg.Scenarios, Corpus: cfg.Corpus, Baseline: cfg.Baseline}.Matrix()
}

// minUTestSamples is the fewest samples a side with which the two-sided
// Mann-Whitney U-test of two equal-sized sides can reach alpha: its
// smallest p, every sample of one side below every one of the other, is
// 2 / C(2n, n) (3 a side: 0.1; 4: 0.029).
func minUTestSamples(alpha float64) int {
	n := 1
	for ; n < 30 && 2/binomial(2*n, n) > alpha; n++ {
	}
	return n
}

// binomial is C(n, k) as a float64.
func binomial(n, k int) float64 {
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return c
}
