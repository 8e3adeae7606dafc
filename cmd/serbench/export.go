package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/export"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/scenario"
)

func init() {
	register("export", "write a standalone Go module of plain go test benchmarks of the same codecs and scenarios", cmdExport)
}

func cmdExport(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		out           = fs.String("o", "", "folder to write the module into (must not exist or be empty)")
		codecsFlag    = fs.String("codecs", "", "comma-separated codec IDs (default: every exportable one: "+strings.Join(export.Supported(), ",")+")")
		scenariosFlag = fs.String("scenarios", "", "comma-separated scenario IDs or groups (default: all built-in whose types can be copied, but the opt-in annot group; annot or annot/coo selects a group)")
		corpusFlag    = fs.String("corpus", "", "a JSON file, a JSON Lines file (.ndjson, .jsonl; left out: one value per scenario) or a folder of them, to add as corpus/<name> scenarios")
		liveHeap      = fs.String("live-heap", scenario.SizeLabel(bench.DefaultLiveHeap), "the GC condition the benchmarks keep by default, as serbench run -live-heap: a live heap size, or 0 for no ballast (the environment variable "+bench.LiveHeapVar+" overrides it at go test time)")
		tidy          = fs.Bool("tidy", true, "run go mod tidy in the module afterwards, writing go.sum (needs the module cache or proxy)")
	)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench export -o DIR [flags]")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	if *out == "" {
		return usagef("export: -o DIR is required")
	}
	lh, err := bench.ParseLiveHeap(*liveHeap)
	if err != nil {
		return fmt.Errorf("-live-heap: %w", err)
	}
	codecs := export.Supported()
	if *codecsFlag != "" {
		codecs = splitList(*codecsFlag)
	}
	// The baseline first, so each speed-up can be computed from the output.
	codecs = append([]string{"encoding/json"}, without(codecs, "encoding/json")...)
	scenarios, _, err := loadScenarios(*corpusFlag)
	if err != nil {
		return err
	}
	if scenarios, err = pickScenarios(scenarios, *scenariosFlag); err != nil {
		return err
	}
	m := export.Module{
		Codecs:    codecs,
		Scenarios: scenarios,
		Go:        strings.TrimPrefix(runtime.Version(), "go"),
		Requires:  buildModules(),
		BenchName: report.BenchName,
		LiveHeap:  lh,
	}
	skipped, err := m.Write(*out)
	for _, s := range skipped {
		fmt.Fprintf(stderr, "serbench: export: %s left out: %v\n", s.Scenario, s.Err)
	}
	if err != nil {
		return err
	}
	if *tidy {
		cmd := exec.CommandContext(ctx, "go", "mod", "tidy")
		cmd.Dir, cmd.Stdout, cmd.Stderr = *out, stderr, stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("export: go mod tidy in %s: %w (the module is written; run it there once the module proxy is reachable)", *out, err)
		}
	}
	fmt.Fprintf(stdout, "wrote %s: %d codecs × %d scenarios; run: cd %s && go test -run '^$' -bench . -count 10\n", *out, len(codecs), len(scenarios)-len(skipped), *out)
	return nil
}

// buildModules maps every module linked into this binary to its version:
// the exported go.mod requires them all, so `go mod tidy` keeps the
// libraries (and their dependencies) at the versions serbench measured.
func buildModules() map[string]string {
	mods := map[string]string{}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return mods
	}
	for _, d := range bi.Deps {
		if d.Replace != nil {
			d = d.Replace
		}
		if d.Version != "" && d.Version != "(devel)" && !strings.HasPrefix(d.Path, "github.com/serbench/serbench") {
			mods[d.Path] = d.Version
		}
	}
	return mods
}

func without(xs []string, x string) []string {
	var out []string
	for _, y := range xs {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}
