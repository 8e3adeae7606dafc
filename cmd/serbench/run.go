package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/serbench/serbench/archive"
	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/bench/profiler"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/compressor/algorithms"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/export"
	"github.com/serbench/serbench/plan"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/rundoc"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/toolchain"
)

// runCommand is the run subcommand with its dependencies: builder returns
// how run -go and -mod build serbench (checkoutBuilder; tests build
// nothing).
type runCommand struct {
	builder func(ctx context.Context) (toolchain.Builder, error)
}

func (c runCommand) run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("run", stderr, "usage: serbench run [flags]")
	var (
		codecsFlag    = codecsFlag(fs, "", codecsUsage, resolveRunCodecs)
		scenariosFlag = fs.String("scenarios", "", "comma-separated scenario IDs or groups (default: all built-in but the opt-in annot group; annot or annot/coo selects a group)")
		corpusFlag    = fs.String("corpus", "", "a JSON file, a JSON Lines file (.ndjson, .jsonl: one message per line), or a folder of them, to add as corpus/<name> scenarios (numbers kept exact; each gets a source-fidelity line)")
		quick         = fs.Bool("quick", false, fmt.Sprintf("short run: -benchtime %v -count %d unless given", quickBenchtime, quickCount))
		benchtime     = fs.Duration("benchtime", bench.DefaultBenchtime, fmt.Sprintf("target duration of one sample of one cell (%v with adaptive sampling)", bench.DefaultAdaptiveBenchtime))
		count         = fs.Int("count", bench.DefaultCount, "samples per cell, fixed: no adaptive sampling (at least 6 for a 95% interval on the median)")
		target        = percentFlag(fs, "target", rundoc.DefaultTarget, "adaptive sampling: more samples for cells whose 95% half-width is above this (0 for a fixed -count)")
		maxTime       = fs.Duration("max-time", bench.DefaultMaxTime, "adaptive sampling: wall-time budget for preparing and sampling")
		format        = formatFlag(fs, "table", report.Formats, "")
		out           = outputFlag(fs, "write the output to this file instead of standard output (replaced only when the run succeeds)")
		parallel      = fs.Bool("parallel", false, "also measure throughput with 1..GOMAXPROCS goroutines and report the scaling")
		cpuprofile    = fs.String("cpuprofile", "", "write a CPU profile per cell into this folder (<codec>_<scenario>_<op>.pprof)")
		memprofile    = fs.String("memprofile", "", "write a heap allocation profile per cell into this folder")
		profiletime   = fs.Duration("profiletime", bench.DefaultProfileTime, "with -cpuprofile or -memprofile: how long each cell's profiling pass runs")
		gomaxprocs    = fs.Int("gomaxprocs", 0, "set GOMAXPROCS for the run (default: leave as is)")
		gogc          = parsedFlag(fs, "gogc", nil, "set the GC target percentage for the run, or off (default: leave as is, GOGC or 100)", parseGOGC)
		pin           = parsedFlag(fs, "pin", nil, "pin the process to these processors, e.g. 0,1 (Linux sched_setaffinity)", parsePin)
		sizesFlag     = parsedFlag(fs, "sizes", nil, "size sweep: add sweep/user-event@SIZE scenarios scaled to these encoding/json sizes, e.g. 1KiB,64KiB,1MiB, or default ("+defaultSizes()+"); they replace the built-in scenarios unless -scenarios is given", scenario.ParseSizes)
		liveHeap      = fs.String("live-heap", scenario.SizeLabel(bench.DefaultLiveHeap), "the GC condition: keep the live heap at this size during timing with a ballast (0: no ballast, serbench's own live heap only; serbench export -live-heap gives the plain loops the same)")
		archiveDir    = checkedFlag(fs, "archive", "also add the run to this results archive folder (see serbench archive), as its JSON under a key built from its env", archive.CheckDir)
		compressFlag  = parsedFlag(fs, "compress", nil, "also time these compressors on each codec's encoded bytes, as ops compress:ID and decompress:ID: comma-separated, from "+strings.Join(algorithms.IDs(), ","), algorithms.Parse)
		processes     = fs.Int("processes", 1, fmt.Sprintf("split the run over this many processes of serbench, one after the other (each with its share of -max-time), and pool their samples; each cell then keeps every process's figures, and serbench compare tests between processes, so that a codec whose speed moves from one process to the next (sonic compiles its code at run time) is not read as a change: 3 for a run that a -max-regression gate reads (range [1, %d])", results.MaxProcesses))
	)
	goFlag := parsedFlag(fs, "go", nil, "compare Go toolchains: build serbench with each of these (comma-separated, e.g. go1.26.11,go1.27.4,go1.27.4+nojsonv2; fetched through the module proxy) and measure the same cells in each, samples interleaved", toolchain.Parse)
	modFlag := parsedFlag(fs, "mod", nil, "compare versions of a module serbench links: build serbench with each (MODULE@V1,V2, e.g. github.com/bytedance/sonic@v1.15.4,v1.15.5; with -go, every toolchain with every version), samples interleaved", parseMod)
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	sampling := samplingFlags{benchtime: *benchtime, maxTime: *maxTime, profileTime: *profiletime, count: *count, target: *target, liveHeap: *liveHeap,
		quick: *quick, countSet: set["count"], benchtimeSet: set["benchtime"], targetSet: set["target"]}
	opts, err := sampling.options()
	if err != nil {
		return err
	}
	if *processes < 1 || *processes > results.MaxProcesses {
		return usagef("invalid -processes %d (range is [1, %d])", *processes, results.MaxProcesses)
	}
	if *processes > 1 {
		return runProcesses(ctx, stdout, stderr, fs, set, *processes, opts.Target > 0, opts.MaxTime, *format, *out, *archiveDir)
	}
	if goFlag.text != "" || modFlag.text != "" {
		cfg := toolchain.Config{Codecs: codecsFlag.ids, Scenarios: splitList(*scenariosFlag), Corpus: *corpusFlag, Benchtime: opts.Benchtime, Baseline: opts.Baseline, LiveHeap: opts.LiveHeap}
		return c.toolchains(ctx, stdout, stderr, goFlag, modFlag, set, cfg, sampling.rounds(opts), *format, *out)
	}
	// Record the sample length in effect (adaptive sampling has its own default).
	if err := fs.Set("benchtime", opts.Benchtime.String()); err != nil {
		return err
	}

	if *gomaxprocs < 0 {
		return usagef("invalid -gomaxprocs %d (must not be negative)", *gomaxprocs)
	}
	opts.Parallel, opts.Compressors = *parallel, compressFlag.v
	if dirs := (profiler.Dirs{CPU: *cpuprofile, Mem: *memprofile}); dirs != (profiler.Dirs{}) {
		if err := dirs.Create(); err != nil {
			return err
		}
		opts.Profiler = dirs
	}
	restore, err := rundoc.Controls{GOMAXPROCS: *gomaxprocs, GOGC: gogc.v, Pin: pin.v}.Apply()
	if err != nil {
		return err
	}
	defer restore()

	codecs, scenarios, warnings, err := selectMatrix(rundoc.Selection{Codecs: codecsFlag.ids, Scenarios: splitList(*scenariosFlag), Corpus: *corpusFlag, Baseline: opts.Baseline, Sizes: sizesFlag.v})
	if err != nil {
		return err
	}
	// Open the output before the long part, so an unwritable -o fails fast.
	dst, err := openOutput(stdout, *out)
	if err != nil {
		return err
	}
	defer dst.discard()

	progress := newProgress(stderr, time.Now(), "measurements")
	opts.Progress = progress.measuring
	if opts.Target > 0 {
		// -max-time bounds the measurement from its start.
		progress.budget, progress.budgetStart = opts.MaxTime, progress.started
	}
	doc, err := rundoc.New(ctx, rundoc.Options{Bench: opts, Codecs: codecs, Scenarios: scenarios, Registry: all.Registry(),
		Warnings: warnings, Settings: settings(fs), GOGC: gogc.v, Serbench: codec.ModuleVersion(export.SerbenchModule)})
	progress.finish()
	if err != nil {
		return err
	}
	return writeRun(ctx, dst, stderr, doc, *format, *archiveDir)
}

// writeRun prints doc's warnings on stderr (unless the table on a terminal
// shows them), writes doc in format to dst and adds doc to the archive in
// dir when one is given.
func writeRun(ctx context.Context, dst *output, stderr io.Writer, doc *results.Run, format, dir string) error {
	for _, warn := range doc.Warnings {
		if dst.path != "" || format != "table" {
			fmt.Fprintf(stderr, "serbench: warning: %s\n", warn)
		}
	}
	if err := dst.write(func(w io.Writer) error { return writeRunFormat(w, format, doc) }); err != nil {
		return err
	}
	if dir == "" {
		return nil
	}
	written, err := archive.AddDocument(ctx, dir, doc, "this run")
	for _, p := range written {
		fmt.Fprintf(stderr, "serbench: archived as %s\n", p)
	}
	return err
}

// defaultSizes lists scenario.DefaultSweepSizes as -sizes takes them.
func defaultSizes() string {
	var s []string
	for _, n := range scenario.DefaultSweepSizes {
		s = append(s, scenario.SizeLabel(n))
	}
	return strings.Join(s, ",")
}

// codecsUsage is the -codecs flag's help text of run, fidelity and hostile.
const codecsUsage = "comma-separated codec IDs and groups (default, all, json, msgpack, cbor, schema, binary; group:NAME when a codec has the same ID); default: the default set (see serbench list)"

// selectCodecs returns the codecs of codec/all with the IDs that -codecs
// resolved to (codecsValue), the default set when ids is nil. An ID this
// build lacks is an error saying why.
func selectCodecs(ids []string) ([]codec.Codec, error) {
	reg := all.Registry()
	if ids == nil {
		return reg.Default(), nil
	}
	return reg.Select(ids)
}

// selectMatrix returns the codecs (with the baseline added) and the
// scenarios (built-in, plus -corpus's, with its warnings) of sel, a
// selection of codec/all (rundoc.Selection.Matrix). An unknown scenario
// is a usage error, a corpus error names -corpus.
func selectMatrix(sel rundoc.Selection) ([]codec.Codec, []scenario.Scenario, []string, error) {
	sel.Registry = all.Registry()
	cs, ss, warnings, err := sel.Matrix()
	var ce *rundoc.CorpusError
	switch {
	case errors.As(err, new(*rundoc.ScenarioError)):
		return nil, nil, nil, usageError{err}
	case errors.As(err, &ce):
		return nil, nil, nil, fmt.Errorf("-corpus: %w", ce.Err)
	}
	return cs, ss, warnings, err
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// settings records every flag of fs with its value in effect.
func settings(fs *flag.FlagSet) []string {
	var s []string
	fs.VisitAll(func(f *flag.Flag) { s = append(s, f.Name+"="+f.Value.String()) })
	return s
}

// writeRunFormat writes doc in format (report.Write), the HTML page with
// its capacity calculator (plan.NewCalculator).
func writeRunFormat(w io.Writer, format string, doc *results.Run) error {
	var calc *document.Calculator
	if format == "html" {
		var err error
		if calc, err = plan.NewCalculator(doc); err != nil {
			return err
		}
	}
	return report.Write(w, format, doc, calc)
}
