package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/corpus"
	"github.com/serbench/serbench/export"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

func cmdExport(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("export", stderr, "usage: serbench export -o DIR [flags]")
	var (
		out           = fs.String("o", "", "folder to write the module into (must not exist or be empty)")
		codecsFlag    = codecsFlag(fs, "", codecsUsage+"; library codecs, exported as their own Go calls with no serbench code: "+strings.Join(export.Supported(), ",")+"; the others through their serbench adapter (-serbench)", resolveCodecs)
		serbenchDir   = fs.String("serbench", "", "the serbench checkout that adapter codecs (all but the library codecs) import, by a replace directive (default: the module of the current folder, when it is serbench)")
		scenariosFlag = fs.String("scenarios", "", "comma-separated scenario IDs or groups (default: all built-in whose types can be copied, but the opt-in annot group; annot or annot/coo selects a group)")
		corpusFlag    = fs.String("corpus", "", "a JSON file, a JSON Lines file (.ndjson, .jsonl; left out: one value per scenario) or a folder of them, to add as corpus/<name> scenarios")
		liveHeap      = fs.String("live-heap", scenario.SizeLabel(bench.DefaultLiveHeap), "the GC condition the benchmarks keep by default, as serbench run -live-heap: a live heap size, or 0 for no ballast (the environment variable "+bench.LiveHeapVar+" overrides it at go test time)")
		tidy          = fs.Bool("tidy", true, "run go mod tidy in the module afterwards, writing go.sum (needs the module cache or proxy)")
	)
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	if *out == "" {
		return usagef("export: -o DIR is required")
	}
	lh, err := bench.ParseLiveHeap(*liveHeap)
	if err != nil {
		return usagef("-live-heap: %w", err)
	}
	selected, err := selectCodecs(codecsFlag.ids)
	if err != nil {
		return err
	}
	scenarios, _, err := corpus.All(*corpusFlag, corpus.Options{})
	if err != nil {
		return fmt.Errorf("-corpus: %w", err)
	}
	if scenarios, err = scenario.Pick(scenarios, splitList(*scenariosFlag)); err != nil {
		return usageError{err}
	}
	m := export.Module{
		Scenarios: scenarios,
		BenchName: results.BenchName,
		LiveHeap:  lh,
	}
	warning, err := m.SetCodecs(ctx, codecIDs(selected), codecsFlag.ids != nil, *serbenchDir)
	if err != nil {
		return err
	}
	if warning != "" {
		fmt.Fprintf(stderr, "serbench: export: %s\n", warning)
	}
	skipped, err := m.Write(*out)
	left := map[string]bool{}
	for _, s := range skipped {
		if s.Codec != "" {
			fmt.Fprintf(stderr, "serbench: export: %s on %s left out: %v\n", s.Codec, s.Scenario, s.Err)
			continue
		}
		left[s.Scenario] = true
		fmt.Fprintf(stderr, "serbench: export: %s left out: %v\n", s.Scenario, s.Err)
	}
	if err != nil {
		return err
	}
	if *tidy {
		if err := export.Tidy(ctx, *out, stderr); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "wrote %s: %d codecs × %d scenarios; run: cd %s && go test -run '^$' -bench . -count 10\n", *out, len(m.Codecs), len(scenarios)-len(left), *out)
	return nil
}
