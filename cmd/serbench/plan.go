package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/compressor"
	"github.com/serbench/serbench/compressor/algorithms"
	"github.com/serbench/serbench/corpus"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/plan"
	"github.com/serbench/serbench/report"
)

func init() {
	register("plan", "what each codec × compressor costs at a message rate: cores, wire bytes, monthly cost, binding limit, budgets", cmdPlan)
}

// planFlags are plan's inputs besides the payload.
type planFlags struct {
	rate, cores, bandwidth, p99, egress, cpuPrice, egressPrice float64
	fanout                                                     int
}

func cmdPlan(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var pf planFlags
	fs.Float64Var(&pf.rate, "rate", 0, "messages per second published (required, > 0)")
	fs.IntVar(&pf.fanout, "fanout", 1, "receivers that decode each message")
	fs.Float64Var(&pf.cores, "cores", float64(runtime.NumCPU()), "the sending server's cores (vCPUs)")
	fs.Float64Var(&pf.bandwidth, "bandwidth", 0, "the sending server's egress bandwidth in MB/s (10^6 bytes; 0: unlimited)")
	fs.Float64Var(&pf.p99, "p99", 0, "budget: p99 latency in ms (0: none)")
	fs.Float64Var(&pf.egress, "egress", 0, "budget: egress in MB/s (0: none)")
	fs.Float64Var(&pf.cpuPrice, "cpu-price", 0, "price of one vCPU-hour")
	fs.Float64Var(&pf.egressPrice, "egress-price", 0, "price of one GB (10^9 bytes) of egress")
	var (
		codecsFlag    = codecsFlag(fs, "", codecsUsage, resolveCodecs)
		scenariosFlag = fs.String("scenarios", "", "comma-separated scenario IDs: seeds, corpus/<name>, or -corpus's (default: the scenarios of -corpus when given, otherwise ws-message)")
		corpusFlag    = fs.String("corpus", "", "a JSON file, a JSON Lines file (one message per line) or a folder of them, as corpus/<name> scenarios")
		compressFlag  = fs.String("compress", "none,"+strings.Join(algorithms.IDs(), ","), "compressors to compare: comma-separated, none and "+strings.Join(algorithms.IDs(), ","))
		from          = fs.String("from", "", "read the codec figures from this saved run (serbench run -format json, with -compress and -parallel) instead of measuring")
		transportFlag = fs.String("transport", "measure", "the transport's own cost: measure (a server on this machine, a few seconds) or NS_PER_MSG,NS_PER_BYTE,FRAME_BYTES[,P99_MS] (binary payloads count as base64 with -via sse)")
		via           = fs.String("via", "sse", "transport measured and verified: sse or ws")
		benchtime     = fs.Duration("benchtime", quickBenchtime, "measuring: target duration of one sample of one cell")
		count         = fs.Int("count", 6, "measuring: samples per cell (6 is the fewest with a 95% interval)")
		verify        = fs.Duration("verify", 0, "run serbench serve and load for the top choices at the planned rate for this long each, and print predicted against measured")
		top           = fs.Int("top", 3, "with -verify: how many of the top choices to run")
		format        = formatFlag(fs, "table", plan.Formats, "json: a serbench-plan/v1 document; html: one page with a calculator")
		out           = outputFlag(fs, "write the output to this file instead of standard output (replaced only when the plan succeeds)")
	)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench plan -rate MSG/S [flags]")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	if *via != "sse" && *via != "ws" {
		return usagef("plan: unknown -via %q (want sse or ws)", *via)
	}
	if *top < 1 {
		return usagef("plan: invalid -top %d (want >= 1)", *top)
	}
	in := plan.Inputs{Rate: pf.rate, Fanout: pf.fanout, Cores: pf.cores, BandwidthBps: pf.bandwidth * 1e6,
		P99BudgetMs: pf.p99, EgressBudgetBps: pf.egress * 1e6, CPUPrice: pf.cpuPrice, EgressPrice: pf.egressPrice}
	if err := in.Validate(); err != nil {
		return err
	}
	if *transportFlag != "measure" {
		t, err := parseTransport(*transportFlag)
		if err != nil {
			return err
		}
		t.Base64 = *via == "sse"
		in.Transport = t
	}
	if *scenariosFlag == "" {
		ids, err := planDefaultScenarios(*corpusFlag)
		if err != nil {
			return err
		}
		*scenariosFlag = ids
	}
	var warnings []string
	comps, algs, warn := planCompressors(*compressFlag)
	warnings = append(warnings, warn...)

	started := time.Now()
	doc := plan.Document{Schema: plan.Schema, Source: "measured", TransportSource: "given"}

	var (
		results []bench.Result
		ids     []string
		codecs  []codec.Codec
	)
	if *from != "" {
		saved, err := report.ReadFile(*from)
		if err != nil {
			return err
		}
		results, doc.Source = saved.Results, *from
		ids = splitList(*scenariosFlag)
		if len(ids) == 0 {
			return usagef("plan: -scenarios names no scenario")
		}
	} else {
		cs, scenarios, warn, err := selectMatrix(*codecsFlag, *scenariosFlag, *corpusFlag, bench.DefaultBaseline)
		if err != nil {
			return err
		}
		warnings = append(warnings, warn...)
		codecs = carriers(cs)
		for _, s := range scenarios {
			ids = append(ids, s.ID)
		}
		progress := newProgress(stderr, started, "measurements")
		m, err := bench.Measure(ctx, codecs, scenarios, bench.Options{Benchtime: *benchtime, Count: *count,
			Parallel: true, Compressors: algorithms.Compressions(algs), Progress: progress.update})
		progress.finish()
		if err != nil {
			return err
		}
		results = m.Results
	}

	if *transportFlag == "measure" {
		t, err := measureTransport(ctx, *via, in.Rate, *verify)
		if err != nil {
			return fmt.Errorf("plan: measuring the transport (give -transport NS_PER_MSG,NS_PER_BYTE,FRAME_BYTES to skip): %w", err)
		}
		in.Transport, doc.TransportSource = t, "measured"
	}

	answered := 0
	for _, id := range ids {
		opts := plan.FromResults(results, id, comps, in.Cores)
		noScaling := false
		for i := range opts {
			c, ok := all.Registry().Lookup(opts[i].Codec)
			opts[i].Binary = opts[i].Compressor != plan.None || (ok && c.Info().Binary)
			noScaling = noScaling || (opts[i].Error == "" && opts[i].SendEfficiency == 0)
		}
		if noScaling {
			warnings = append(warnings, fmt.Sprintf("%s: the run has no parallel figures for some codecs (serbench run -parallel): their efficiency is taken as 1", id))
		}
		if len(opts) == 0 {
			warnings = append(warnings, fmt.Sprintf("%s: no codec results for this scenario", id))
			continue
		}
		res, err := plan.Compute(in, opts)
		if errors.Is(err, plan.ErrNoOption) {
			warnings = append(warnings, fmt.Sprintf("%s: no codec can carry this payload", id))
		} else if err != nil {
			return err
		} else {
			answered++
		}
		p := plan.Plan{Scenario: id, Options: opts, Result: res}
		if *verify > 0 && err == nil {
			p.Verify = verifyPlan(ctx, stderr, *via, id, in, opts, res, *top, *verify)
		}
		doc.Plans = append(doc.Plans, p)
	}
	doc.Warnings = warnings
	doc.Env = env.Collect(started.UTC(), moduleVersions(codecs))
	doc.Env.Settings = settings(fs)
	if answered == 0 {
		return fmt.Errorf("plan: nothing can be answered: %s", strings.Join(warnings, "; "))
	}
	w, commit, err := openOutput(stdout, *out)
	if err != nil {
		return err
	}
	defer commit(false)
	if err := plan.Write(w, *format, doc); err != nil {
		return err
	}
	return commit(true)
}

// planCompressors splits -compress into the compressor IDs (without none)
// and their algorithms; an unknown name is a warning and left out.
func planCompressors(flag string) (ids []string, algs []compressor.Algorithm, warnings []string) {
	for _, id := range splitList(flag) {
		if id == plan.None || slices.Contains(ids, id) {
			continue
		}
		a, err := algorithms.Select([]string{id})
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("-compress: %v; left out", err))
			continue
		}
		ids, algs = append(ids, id), append(algs, a...)
	}
	return ids, algs, warnings
}

// carriers drops the codecs that cannot carry a message: reference rows
// and parse-only codecs.
func carriers(cs []codec.Codec) []codec.Codec {
	var out []codec.Codec
	for _, c := range cs {
		if i := c.Info(); i.Kind != codec.Reference && !i.ParseOnly {
			out = append(out, c)
		}
	}
	return out
}

// parseTransport reads -transport NS_PER_MSG,NS_PER_BYTE,FRAME_BYTES[,P99_MS].
func parseTransport(s string) (plan.Transport, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 && len(parts) != 4 {
		return plan.Transport{}, usagef("plan: invalid -transport %q (want measure or NS_PER_MSG,NS_PER_BYTE,FRAME_BYTES[,P99_MS])", s)
	}
	var v [4]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
			return plan.Transport{}, usagef("plan: invalid -transport %q: %q is not a number >= 0", s, p)
		}
		v[i] = x
	}
	return plan.Transport{NsPerMsg: v[0], NsPerByte: v[1], FrameBytes: v[2], P99Ms: v[3]}, nil
}

// planDefaultScenarios is plan's -scenarios when the flag is not given:
// every scenario of the corpus at path (corpus/<name>, comma-separated),
// or ws-message without a corpus.
func planDefaultScenarios(path string) (string, error) {
	if path == "" {
		return "ws-message", nil
	}
	ss, err := corpus.Files(path, corpus.Options{})
	if err != nil {
		return "", fmt.Errorf("-corpus: %w", err)
	}
	ids := make([]string, len(ss))
	for i, s := range ss {
		ids[i] = s.ID
	}
	return strings.Join(ids, ","), nil
}
