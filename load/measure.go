package load

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/transport/server"
)

// Session is a whole `serbench load` run: the push load of Options (sse,
// ws) or the request load of HTTP (http), once per scenario of Scenarios,
// against Options.URL or a server this session starts. Validate checks it
// once; Measure runs it into a complete Report.
type Session struct {
	// Options is the push load of each scenario (Options.Scenario is set
	// from Scenarios). With URL "", Server is served in this process on a
	// free loopback port and loaded.
	Options Options
	// HTTP, when set, runs request load instead of Options: each scenario
	// and codec is one phase at HTTP.Rate or, when Max is set, a search
	// for the highest rate whose p99 stays within SLO (HTTPMax). With
	// HTTP.URL "", the server runs in a child process of this program
	// (server.StartProcess: its main must serve server.ChildRole), so its
	// CPU figures leave the client out.
	HTTP *HTTPOptions
	Max  bool
	SLO  time.Duration
	// Scenarios are the scenario IDs, one after another; none: the
	// transport's default (Options, HTTPOptions).
	Scenarios []string
	// Server is the in-process server of push load without a URL; it is
	// closed when Measure returns.
	Server *server.Server
	// CPUProfile, when set, is a folder (made if missing) where Measure
	// writes a CPU profile of this process (the client, and an in-process
	// server) as load_<transport>.pprof.
	CPUProfile string
	// Env returns the environment the report records, given when the run
	// started and the codecs it loaded. Default env.Collect with
	// their modules.
	Env func(started time.Time, used []codec.Codec) env.Env
}

// httpModules are the modules of the HTTP stacks and the load generator a
// request load report records besides the codecs'.
var httpModules = []string{"github.com/gin-gonic/gin", "github.com/labstack/echo/v4", "github.com/tsenart/vegeta/v12"}

// Validate returns the first error of the options of each scenario
// (Options.Effective or HTTPOptions.Effective, a URL "" taken as a
// loopback one), an SLO out of range with Max (MaxSearch), push load
// with neither a URL nor a Server, or push load whose connections need
// more file descriptors than the hard open file limit (one per
// connection, two with the server in this process).
func (s Session) Validate() error {
	if s.HTTP != nil && s.Max {
		if _, err := (MaxSearch{SLO: s.SLO}).effective(); err != nil {
			return err
		}
	}
	for _, id := range s.scenarios() {
		var err error
		if s.HTTP != nil {
			ho := *s.HTTP
			ho.Scenario = id
			if ho.URL == "" {
				ho.URL = "http://127.0.0.1:1"
			}
			_, err = ho.Effective()
		} else {
			o := s.Options
			o.Scenario = id
			if o.URL == "" {
				if s.Server == nil {
					return errors.New("load: no URL and no Server")
				}
				o.URL = "http://127.0.0.1:1"
			}
			var eo Options
			if eo, err = o.Effective(); err == nil {
				err = checkPushDescriptors(eo.Conns, s.Options.URL == "")
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// PushLength is how long push load runs in all, for a progress display:
// each phase (one per scenario, times one per codec without Options.Mix)
// takes Options.Duration plus Options.Grace, setup aside.
func (s Session) PushLength() time.Duration {
	phases := len(s.scenarios())
	if len(s.Options.Mix) == 0 {
		phases *= len(s.Options.Codecs)
	}
	return time.Duration(phases) * (s.Options.Duration + s.Options.Grace)
}

func (s Session) scenarios() []string {
	if len(s.Scenarios) == 0 {
		return []string{""} // the transport's default
	}
	return s.Scenarios
}

// Measure runs the session and returns its report, host and finishing
// time included; the open file limit is raised first (RaiseOpenFiles).
func (s Session) Measure(ctx context.Context) (Report, error) {
	if s.Server != nil {
		defer s.Server.Close()
	}
	if err := s.Validate(); err != nil {
		return Report{}, err
	}
	if s.CPUProfile != "" {
		stop, err := StartCPUProfile(s.CPUProfile, "load_"+s.Options.Transport+".pprof")
		if err != nil {
			return Report{}, err
		}
		defer stop()
	}
	started := time.Now()
	var (
		rep  = Report{Schema: Schema, Transport: []Result{}}
		ids  []string
		err  error
		mods map[string]string
	)
	if s.HTTP != nil {
		rep.HTTP, ids, err = s.measureHTTP(ctx)
		mods = httpStackModules()
	} else {
		rep.Transport, err = s.measurePush(ctx)
		ids = s.Options.Codecs
	}
	if err != nil {
		return Report{}, err
	}
	reg := s.Options.Registry
	if s.HTTP != nil {
		reg = s.HTTP.Registry
	}
	cs, _ := reg.Select(ids) // checked, the registry set, by Validate
	if s.Env == nil {
		s.Env = codec.Env
	}
	rep.Env = s.Env(started.UTC(), cs)
	if len(mods) > 0 && rep.Env.Modules == nil {
		rep.Env.Modules = map[string]string{}
	}
	for p, v := range mods {
		rep.Env.Modules[p] = v
	}
	fin := time.Now().UTC()
	rep.Finished = &fin
	rep.Host, _ = os.Hostname() // "" when unknown
	return rep, nil
}

// measurePush runs the push load of every scenario.
func (s Session) measurePush(ctx context.Context) ([]Result, error) {
	o := s.Options
	// In process, each connection needs two descriptors (client and server).
	if err := RaiseOpenFiles(pushDescriptors(o.Conns, o.URL == "")); err != nil {
		return nil, err
	}
	if o.URL == "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("load: %w", err)
		}
		sctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- s.Server.Serve(sctx, ln) }()
		defer func() {
			cancel()
			<-done
		}()
		o.URL, o.InProcess = "http://"+ln.Addr().String(), true
	}
	var results []Result
	for _, id := range s.scenarios() {
		o.Scenario = id
		rs, err := Run(ctx, o)
		if err != nil {
			return nil, err
		}
		results = append(results, rs...)
	}
	return results, nil
}

// measureHTTP runs the request load of every scenario and codec; ids are
// the codecs loaded.
func (s Session) measureHTTP(ctx context.Context) (results []HTTPResult, ids []string, err error) {
	ho := *s.HTTP
	if err := RaiseOpenFiles(uint64(max(ho.Conns, 1)) + 64); err != nil {
		return nil, nil, err
	}
	if ho.URL == "" {
		url, stop, err := server.StartProcess(ctx, "")
		if err != nil {
			return nil, nil, err
		}
		defer stop()
		ho.URL = url
	}
	for _, sid := range s.scenarios() {
		ho.Scenario = sid
		eo, err := ho.Effective()
		if err != nil {
			return nil, nil, err
		}
		for _, cid := range eo.Codecs {
			var r HTTPResult
			if s.Max {
				r, err = HTTPMax(ctx, eo, cid, s.SLO)
			} else {
				r, err = HTTPPhase(ctx, eo, cid, eo.Rate)
			}
			if err != nil {
				return nil, nil, err
			}
			results = append(results, r)
		}
		ids = eo.Codecs
	}
	return results, ids, nil
}

// httpStackModules returns the versions of httpModules linked into this
// binary.
func httpStackModules() map[string]string {
	m := map[string]string{}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			for _, p := range httpModules {
				if d.Path == p {
					m[p] = d.Version
				}
			}
		}
	}
	return m
}

// StartCPUProfile profiles this process (runtime/pprof) into the file
// dir/name, dir made if missing, until stop is called. The server and
// client processes of a split load (`load -servers/-clients -cpuprofile`)
// profile themselves with it.
func StartCPUProfile(dir, name string) (stop func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	pf, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	if err := pprof.StartCPUProfile(pf); err != nil {
		pf.Close()
		return nil, fmt.Errorf("load: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		pf.Close()
	}, nil
}
