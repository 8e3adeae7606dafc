package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"strings"
	"time"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/corpus"
	"github.com/serbench/serbench/load"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport/server"
)

// serverChild serves server.ChildRole: the child that serves
// transport/server (and so the /api/ endpoints) for `load -transport http`
// and `plan`, so that the server's CPU and heap figures leave the load
// client out. An argument of server.CorpusArg adds the corpus's documents
// (corpus.All), for `plan -verify` on a corpus.
func serverChild(arg string) error {
	path, ok, err := server.ParseCorpusArg(arg)
	if err != nil {
		return err
	}
	var extra []scenario.Scenario
	if ok {
		if extra, _, err = corpus.All(path, corpus.Options{}); err != nil {
			return err
		}
	}
	return server.ServeChild(os.Stdin, os.Stdout, all.Registry(), extra)
}

func cmdLoad(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("load", stderr,
		"usage: serbench load [flags]",
		"\nServer flags (-queue ... -ping) apply to the in-process server only.",
		"With -transport http: -rate is requests/s in total (default 1000), -duration is per codec or -max step (default 10s),\n-conns the most connections open; the server runs in a child process unless -url is given.")
	s := load.Session{Env: envFunc(fs), HTTP: &load.HTTPOptions{CPUScope: "server"}}
	o, ho := &s.Options, s.HTTP
	fs.StringVar(&o.Transport, "transport", load.DefaultTransport, "transport: "+strings.Join(load.Transports, ", ")+" or http (request/response APIs, see -framework)")
	fs.IntVar(&o.Conns, "conns", load.DefaultConns, "connections (per codec phase, or in total with -mix)")
	fs.IntVar(&o.Fanout, "fanout", 1, "connections per stream: -conns/-fanout streams, each message encoded once and sent to -fanout connections (-conns must be a multiple)")
	fs.Float64Var(&o.Rate, "rate", load.DefaultRate, "messages per second per connection")
	fs.DurationVar(&o.Duration, "duration", load.DefaultDuration, "how long each connection's stream runs")
	codecs := codecsFlag(fs, load.DefaultCodec, "comma-separated codec IDs", selectCodecIDs)
	mix := parsedFlag(fs, "mix", nil, "comma-separated weights, one per codec: run the codecs at once (e.g. 50,50)", load.ParseMix)
	scenarios := fs.String("scenarios", "", "comma-separated scenario IDs, run one after another (default "+load.DefaultSSEScenario+" for sse, "+load.DefaultWSScenario+" for ws)")
	fs.StringVar(scenarios, "scenario", "", "the older name of -scenarios")
	format := formatFlag(fs, "table", load.Formats, "")
	outFile := outputFlag(fs, "write the output to this file instead of stdout")
	fs.StringVar(&o.URL, "url", "", "target server base URL (loopback only); default: start one in this process")
	fs.StringVar(&s.CPUProfile, "cpuprofile", "", "write a CPU profile of this process (client and in-process server) into this folder, as load_<transport>.pprof; split over processes, each server as server-<i>.pprof and each client as client-<j>/load_<transport>.pprof")
	fs.DurationVar(&o.Grace, "grace", load.DefaultGrace, "wait this long after the schedule for late messages")
	switchTo := fs.String("switch", "", "CODEC@AT: move every stream from the -codecs codec to CODEC mid-run, per message, starting AT into each stream (e.g. msgpack@10s)")
	switchRamp := fs.Duration("switch-ramp", 0, "how long -switch takes to move every message to the new codec (default: half the time left after AT)")
	fs.DurationVar(&o.Setup, "setup", 0, "warm-up: connections open during its first half and no message is sent before it ends (default 250ms + 1ms per connection)")
	servers := fs.Int("servers", 0, "server processes of push load, each serving whole streams (0: none when this process holds both ends of -conns, else the fewest the open file limit allows)")
	clients := fs.Int("clients", 0, "client processes of push load, a multiple of -servers, each loading one server (0: the fewest the open file limit allows)")
	var sf serverFlags
	sf.register(fs)
	fs.StringVar(&ho.Framework, "framework", load.DefaultFramework, "http: server stack, gin, echo or nethttp")
	fs.StringVar(&ho.Method, "method", load.DefaultHTTPMethod, "http: POST (server decodes and re-encodes) or GET (server encodes)")
	fs.BoolVar(&s.Max, "max", false, "http: find the highest rate whose p99 stays within -slo (doubling from -rate, then bisection; each step runs -duration)")
	fs.DurationVar(&s.SLO, "slo", 15*time.Millisecond, "http: p99 latency objective of -max")
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	if err := errors.Join(load.CheckSLO(s.SLO), load.CheckRamp(*switchRamp)); err != nil {
		return usageError{err}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	o.Compress, o.Codecs, o.Registry, o.Mix, s.Scenarios = sf.compress, codecs.ids, all.Registry(), mix.v, splitList(*scenarios)
	if err := loadOptions(&s, set, *switchTo, *switchRamp); err != nil {
		return err
	}
	if s.HTTP == nil {
		sp, err := planSplit(o, set, *servers, *clients)
		if err != nil {
			return err
		}
		if !sp.InProcess {
			return loadSplit(ctx, stdout, stderr, fs, s, sp, *format, *outFile)
		}
	}
	if s.HTTP == nil && o.URL == "" {
		sf.fitLoad(set, o.Conns, o.Rate)
		srv, err := sf.server()
		if err != nil {
			return err
		}
		defer srv.Close()
		s.Server = srv
	}
	if err := s.Validate(); err != nil {
		return usageError{err}
	}
	// Fail on an unwritable -o now, not after the run; an existing file is
	// replaced only when the run succeeds.
	dst, err := openOutput(stdout, *outFile)
	if err != nil {
		return err
	}
	defer dst.discard()
	stopProgress := func() {}
	if s.HTTP == nil {
		stopProgress = newProgress(stderr, time.Now(), "seconds").every(time.Second, int(s.PushLength().Seconds()))
	}
	rep, err := s.Measure(ctx)
	stopProgress()
	if err != nil {
		return err
	}
	return dst.write(func(w io.Writer) error { return load.Write(w, *format, rep) })
}

// loadOptions finishes s from the flags that need more than a value:
// -transport http (s.HTTP, nil otherwise) and -switch. set holds the
// flags given.
func loadOptions(s *load.Session, set map[string]bool, switchTo string, switchRamp time.Duration) error {
	o := &s.Options
	if o.Transport != "http" {
		s.HTTP = nil
	} else {
		for _, name := range []string{"mix", "fanout", "setup", "servers", "clients", "cpuprofile", "grace", "queue", "replay", "overflow", "linger", "flush-every", "flush-interval", "allow-origin", "ping"} {
			if set[name] {
				return usagef("load: -%s applies to -transport sse and ws, not http", name)
			}
		}
		s.HTTP.Codecs, s.HTTP.Registry, s.HTTP.Conns, s.HTTP.URL = o.Codecs, o.Registry, o.Conns, o.URL
		if set["rate"] {
			s.HTTP.Rate = o.Rate
		}
		if set["duration"] {
			s.HTTP.Duration = o.Duration
		}
		if len(s.Scenarios) == 0 {
			s.Scenarios = []string{load.DefaultHTTPScenario}
		}
	}
	if switchTo != "" {
		sw, err := load.ParseSwitch(switchTo, switchRamp)
		if err != nil {
			return usageError{err}
		}
		o.Switch = sw
	}
	return nil
}
