package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/load"
	"github.com/serbench/serbench/transport/server"
)

// apiServerRole is the child role that serves transport/server (and so
// the /api/ endpoints) for `load -transport http`, so that the server's
// CPU and heap figures leave the load client out.
const apiServerRole = "api-server"

func init() { childRoles[apiServerRole] = apiServerChild }

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
		url, stop, err := startAPIServer(ctx)
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
	env := bench.CollectEnv(started.UTC(), mods)
	env.Settings = settings(fs)
	fin := time.Now().UTC()
	rep := load.Report{Schema: load.Schema, Env: env, Transport: []load.Result{}, HTTP: results, Finished: &fin}
	rep.Host, _ = os.Hostname() // "" when unknown
	write := load.WriteTable
	if format == "json" {
		write = load.WriteJSON
	}
	return write(w, rep)
}

// httpCodec runs one codec: one phase at ho.Rate, or a -max search.
func httpCodec(ctx context.Context, ho load.HTTPOptions, hf httpFlags, id string) (load.HTTPResult, error) {
	if !hf.max {
		return load.HTTPPhase(ctx, ho, id, ho.Rate)
	}
	s := load.MaxSearch{SLO: hf.slo, Start: ho.Rate}
	best, r, steps, err := s.Run(ctx, func(ctx context.Context, rate float64) (load.MaxStep, load.HTTPResult, error) {
		r, err := load.HTTPPhase(ctx, ho, id, rate)
		return load.MaxStep{P99Ms: r.P99Ms, Errors: r.Errors, RequestsPerS: r.RequestsPerS}, r, err
	})
	if err != nil {
		return r, err
	}
	if best == 0 {
		r = load.HTTPResult{Framework: ho.Framework, Codec: id, Scenario: ho.Scenario, Method: ho.Method,
			DurationS: ho.Duration.Seconds(), Conns: ho.Conns, CPUScope: ho.CPUScope}
	}
	r.SLOMs = float64(hf.slo) / float64(time.Millisecond)
	r.MaxRate = &best
	r.Steps = steps
	return r, nil
}

// startAPIServer starts this program as an apiServerRole child and
// returns the base URL it serves; stop ends it (closing its standard
// input, then killing it after 10s).
func startAPIServer(ctx context.Context) (url string, stop func(), err error) {
	cmd, err := childproc.Command(ctx, "", apiServerRole, "")
	if err != nil {
		return "", nil, fmt.Errorf("load: %w", err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", nil, fmt.Errorf("load: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, fmt.Errorf("load: %w", err)
	}
	head := childproc.NewHead()
	cmd.Stderr = head
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("load: start server process: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stop = func() {
		stdin.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill() // it ignored its closed stdin
			<-done
		}
	}
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			line <- sc.Text()
		}
		close(line)
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case addr, ok := <-line:
		if ok && strings.HasPrefix(addr, "127.0.0.1:") {
			return "http://" + addr, stop, nil
		}
		stop()
		return "", nil, fmt.Errorf("load: server process did not start: %q %s", addr, strings.TrimSpace(head.String()))
	case <-time.After(30 * time.Second):
		stop()
		return "", nil, errors.New("load: server process did not start within 30s")
	}
}

// apiServerChild serves transport/server on a free loopback port, prints
// the address on standard output and serves until standard input closes.
func apiServerChild(string) error {
	srv, err := server.New(server.Options{})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		srv.Close()
		return err
	}
	if _, err := fmt.Fprintln(os.Stdout, ln.Addr()); err != nil {
		srv.Close()
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin) // EOF: the parent is done or gone
		cancel()
	}()
	return srv.Serve(ctx, ln)
}
