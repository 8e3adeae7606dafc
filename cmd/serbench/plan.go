package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/compressor/algorithms"
	"github.com/serbench/serbench/plan"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/rundoc"
)

func cmdPlan(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("plan", stderr, "usage: serbench plan -rate MSG/S [flags]")
	o := plan.Options{Inputs: plan.Inputs{Fanout: 1, Cores: float64(runtime.NumCPU())}, Registry: all.Registry(), Log: stderr, Env: envFunc(fs)}
	in := &o.Inputs
	fs.Float64Var(&in.Rate, "rate", 0, "messages per second published (required, > 0)")
	fs.IntVar(&in.Fanout, "fanout", in.Fanout, "receivers that decode each message (with -verify: connections sharing each stream)")
	fs.Float64Var(&in.Cores, "cores", in.Cores, "the sending server's cores (vCPUs)")
	bandwidth := fs.Float64("bandwidth", 0, "the sending server's egress bandwidth in MB/s (10^6 bytes; 0: unlimited)")
	fs.Float64Var(&in.P99BudgetMs, "p99", 0, "budget: p99 latency in ms (0: none)")
	egress := fs.Float64("egress", 0, "budget: egress in MB/s (0: none)")
	fs.Float64Var(&in.CPUPrice, "cpu-price", 0, "price of one vCPU-hour")
	fs.Float64Var(&in.EgressPrice, "egress-price", 0, "price of one GB (10^9 bytes) of egress")
	transport := parsedFlag(fs, "transport", plan.Transport{}, "the transport's own cost: measure (a server on this machine, a few seconds) or NS_PER_MSG,NS_PER_BYTE,FRAME_BYTES[,P99_MS] (binary payloads count as base64 with -via sse)", parseTransport)
	transport.text = "measure"
	via := &choiceValue{what: "-via", value: "sse", valid: []string{"sse", "ws"}}
	fs.Var(via, "via", "transport measured and verified: sse or ws")
	fs.DurationVar(&o.Benchtime, "benchtime", quickBenchtime, "measuring: target duration of one sample of one cell")
	fs.IntVar(&o.Count, "count", 6, "measuring: samples per cell (6 is the fewest with a 95% interval)")
	fs.DurationVar(&o.Verify, "verify", 0, "run serbench serve and load for the top choices at the planned rate for this long each, and print predicted against measured")
	fs.IntVar(&o.Top, "top", 3, "with -verify: how many of the top choices to run")
	var (
		codecsFlag    = codecsFlag(fs, "", codecsUsage, resolveCodecs)
		scenariosFlag = fs.String("scenarios", "", "comma-separated scenario IDs: seeds, corpus/<name>, or -corpus's (default: the scenarios of -corpus when given, otherwise ws-message)")
		corpusFlag    = fs.String("corpus", "", "a JSON file, a JSON Lines file (one message per line) or a folder of them, as corpus/<name> scenarios")
		compressFlag  = fs.String("compress", "", "compressors to compare: comma-separated, none, "+strings.Join(algorithms.IDs(), ",")+", with -via ws "+plan.PermessageDeflate+" and with -via sse "+plan.SSEGzip+" (serve's); with -verify only none and serve's (default: all; with -verify none and serve's)")
		from          = fs.String("from", "", "read the codec figures from this saved run (serbench run -format json, with -compress and -parallel) instead of measuring")
		format        = formatFlag(fs, "table", plan.Formats, "json: a serbench-plan/v1 document; html: one page with a calculator")
		out           = outputFlag(fs, "write the output to this file instead of standard output (replaced only when the plan succeeds)")
	)
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	in.BandwidthBps, in.EgressBudgetBps, in.Transport = *bandwidth*1e6, *egress*1e6, transport.v
	if *compressFlag == "" {
		*compressFlag = strings.Join(append([]string{plan.None}, plan.ServeCompressors(via.value)...), ",")
		if o.Verify == 0 {
			*compressFlag += "," + strings.Join(algorithms.IDs(), ",")
		}
	}
	o.MeasureTransport, o.Via, o.Compressors = transport.text == "measure", via.value, splitList(*compressFlag)
	if *scenariosFlag == "" {
		ids, err := plan.DefaultScenarios(*corpusFlag)
		if err != nil {
			return fmt.Errorf("-corpus: %w", err)
		}
		*scenariosFlag = strings.Join(ids, ",")
	}
	if *from != "" {
		o.Source, o.ScenarioIDs = *from, splitList(*scenariosFlag)
	}
	if err := o.Validate(); err != nil {
		return usageError{err}
	}
	finish := func() {}
	if *from == "" {
		cs, scenarios, warn, err := selectMatrix(rundoc.Selection{Codecs: codecsFlag.ids, Scenarios: splitList(*scenariosFlag), Corpus: *corpusFlag, Baseline: results.DefaultBaseline})
		if err != nil {
			return err
		}
		o.Codecs, o.Scenarios, o.Warnings, o.Corpus = cs, scenarios, warn, *corpusFlag
		progress := newProgress(stderr, time.Now(), "measurements")
		o.Progress, finish = progress.measuring, progress.finish
	}
	doc, err := plan.Build(ctx, o)
	finish()
	if err != nil {
		return err
	}
	return writeOutput(stdout, *out, func(w io.Writer) error { return plan.Write(w, *format, doc) })
}

// parseTransport reads plan's -transport: measure, or the figures
// plan.ParseTransport reads.
func parseTransport(s string) (plan.Transport, error) {
	if s == "measure" {
		return plan.Transport{}, nil
	}
	return plan.ParseTransport(s)
}
