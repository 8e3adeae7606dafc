package main

import (
	"context"
	"flag"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/load"
	"github.com/serbench/serbench/transport/server"
)

// The child that serves transport/server (and so the /api/ endpoints) for
// `load -transport http`, so that the server's CPU and heap figures leave
// the load client out.
func init() {
	childRoles[server.ChildRole] = func(string) error { return server.ServeChild(os.Stdin, os.Stdout) }
}

// httpFlags are load's flags for -transport http.
type httpFlags struct {
	framework string
	method    string
	max       bool
	slo       time.Duration
}

func (f *httpFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.framework, "framework", load.DefaultFramework, "http: server stack, gin, echo or nethttp")
	fs.StringVar(&f.method, "method", load.DefaultHTTPMethod, "http: POST (server decodes and re-encodes) or GET (server encodes)")
	fs.BoolVar(&f.max, "max", false, "http: find the highest rate whose p99 stays within -slo (doubling from -rate, then bisection; each step runs -duration)")
	fs.DurationVar(&f.slo, "slo", 15*time.Millisecond, "http: p99 latency objective of -max")
}

// loadHTTP runs `serbench load -transport http`: -rate is then requests/s
// in total (default 1000), -duration each phase or search step (default
// 10s), -conns the most connections open. Without -url the server runs in
// a child process.
func loadHTTP(ctx context.Context, fs *flag.FlagSet, w io.Writer, hf httpFlags, o load.Options, scenarios []string, target, format string) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, name := range []string{"mix", "cpuprofile", "grace", "queue", "replay", "overflow", "linger", "flush-every", "flush-interval", "allow-origin", "ping"} {
		if set[name] {
			return usagef("load: -%s applies to -transport sse and ws, not http", name)
		}
	}
	ho := load.HTTPOptions{Framework: hf.framework, Method: hf.method, Codecs: o.Codecs, Conns: o.Conns, CPUScope: "server"}
	if set["rate"] {
		ho.Rate = o.Rate
	}
	if set["duration"] {
		ho.Duration = o.Duration
	}
	if len(scenarios) == 0 {
		scenarios = []string{load.DefaultHTTPScenario}
	}
	// Check every option before starting anything.
	ho.URL = "http://127.0.0.1:1"
	for _, id := range scenarios {
		ho.Scenario = id
		if _, err := ho.Effective(); err != nil {
			return err
		}
	}
	if err := raiseNoFile(uint64(max(o.Conns, 1)) + 64); err != nil {
		return err
	}
	started := time.Now()
	if target == "" {
		url, stop, err := server.StartProcess(ctx)
		if err != nil {
			return err
		}
		defer stop()
		ho.URL = url
	} else {
		ho.URL = target
	}
	var results []load.HTTPResult
	for _, sid := range scenarios {
		ho.Scenario = sid
		eo, err := ho.Effective()
		if err != nil {
			return err
		}
		for _, cid := range eo.Codecs {
			r, err := httpCodec(ctx, eo, hf, cid)
			if err != nil {
				return err
			}
			results = append(results, r)
		}
	}
	cs, _ := all.Registry().Select(ho.Codecs) // checked by Effective
	mods := moduleVersions(cs)
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/gin-gonic/gin" || d.Path == "github.com/labstack/echo/v4" || d.Path == "github.com/tsenart/vegeta/v12" {
				mods[d.Path] = d.Version
			}
		}
	}
	e := env.Collect(started.UTC(), mods)
	e.Settings = settings(fs)
	fin := time.Now().UTC()
	rep := load.Report{Schema: load.Schema, Env: e, Transport: []load.Result{}, HTTP: results, Finished: &fin}
	rep.Host, _ = os.Hostname() // "" when unknown
	return load.Write(w, format, rep)
}

// httpCodec runs one codec: one phase at ho.Rate, or a -max search.
func httpCodec(ctx context.Context, ho load.HTTPOptions, hf httpFlags, id string) (load.HTTPResult, error) {
	if hf.max {
		return load.HTTPMax(ctx, ho, id, hf.slo)
	}
	return load.HTTPPhase(ctx, ho, id, ho.Rate)
}
