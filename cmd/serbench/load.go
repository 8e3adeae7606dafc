package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/load"
	"github.com/serbench/serbench/transport/server"
)

func init() {
	register("load", "open-loop SSE/WebSocket push load or HTTP request load on loopback, per-codec latency and bytes", cmdLoad)
}

func cmdLoad(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o load.Options
	fs.StringVar(&o.Transport, "transport", load.DefaultTransport, "transport: "+strings.Join(load.Transports, ", ")+" or http (request/response APIs, see -framework)")
	fs.IntVar(&o.Conns, "conns", load.DefaultConns, "connections (per codec phase, or in total with -mix)")
	fs.Float64Var(&o.Rate, "rate", load.DefaultRate, "messages per second per connection")
	fs.DurationVar(&o.Duration, "duration", load.DefaultDuration, "how long each connection's stream runs")
	codecs := codecsFlag(fs, load.DefaultCodec, "comma-separated codec IDs", selectCodecIDs)
	mix := fs.String("mix", "", "comma-separated weights, one per codec: run the codecs at once (e.g. 50,50)")
	scenarios := fs.String("scenarios", "", "comma-separated scenario IDs, run one after another (default "+load.DefaultSSEScenario+" for sse, "+load.DefaultWSScenario+" for ws)")
	fs.StringVar(scenarios, "scenario", "", "the older name of -scenarios")
	format := formatFlag(fs, "table", load.Formats, "")
	outFile := outputFlag(fs, "write the output to this file instead of stdout")
	target := fs.String("url", "", "target server base URL (loopback only); default: start one in this process")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of this process (client and in-process server) into this folder, as load_<transport>.pprof")
	fs.DurationVar(&o.Grace, "grace", load.DefaultGrace, "wait this long after the schedule for late messages")
	switchTo := fs.String("switch", "", "CODEC@AT: move every stream from the -codecs codec to CODEC mid-run, per message, starting AT into each stream (e.g. msgpack@10s)")
	switchRamp := fs.Duration("switch-ramp", 0, "how long -switch takes to move every message to the new codec (default: half the time left after AT)")
	var sf serverFlags
	sf.register(fs)
	var hf httpFlags
	hf.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench load [flags]")
		fmt.Fprintln(stderr, "\nServer flags (-queue ... -ping) apply to the in-process server only.")
		fmt.Fprintln(stderr, "With -transport http: -rate is requests/s in total (default 1000), -duration is per codec or -max step (default 10s),\n-conns the most connections open; the server runs in a child process unless -url is given.")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	o.Compress = sf.compress
	sf.fitLoad(fs, o.Conns, o.Rate)
	// Fail on an unwritable -o now, not after the run; an existing file is
	// replaced only when the run succeeds.
	w, commit, err := openOutput(stdout, *outFile)
	if err != nil {
		return err
	}
	defer commit(false)
	o.Codecs = splitList(*codecs)
	if *switchTo != "" {
		if o.Switch, err = load.ParseSwitch(*switchTo, *switchRamp); err != nil {
			return err
		}
	}
	if o.Transport == "http" {
		if err := loadHTTP(ctx, fs, w, hf, o, splitList(*scenarios), *target, *format); err != nil {
			return err
		}
		return commit(true)
	}
	if *mix != "" {
		for _, s := range splitList(*mix) {
			w, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return usagef("load: invalid -mix weight %q", s)
			}
			o.Mix = append(o.Mix, w)
		}
	}
	// Check the target before anything else: load never leaves loopback.
	if *target != "" {
		if _, err := load.CheckLoopback(*target); err != nil {
			return err
		}
	}

	// In process, each connection needs two descriptors (client and server).
	need := uint64(o.Conns) + 64
	if *target == "" {
		need += uint64(o.Conns)
	}
	if err := raiseNoFile(need); err != nil {
		return err
	}

	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile, "load_"+o.Transport+".pprof")
		if err != nil {
			return err
		}
		defer stop()
	}
	started := time.Now()
	if *target == "" {
		url, stop, err := serveInProcess(ctx, sf)
		if err != nil {
			return err
		}
		defer stop()
		o.URL, o.InProcess = url, true
	} else {
		o.URL = *target
	}
	ids := splitList(*scenarios)
	if len(ids) == 0 {
		ids = []string{""} // load.Options' default for the transport
	}
	phases := len(ids) * len(o.Codecs)
	if len(o.Mix) > 0 {
		phases = len(ids)
	}
	progress := newProgress(stderr, started, "seconds")
	stopProgress := progress.every(time.Second, int(float64(phases)*(o.Duration+o.Grace).Seconds()))
	var results []load.Result
	for _, id := range ids {
		o.Scenario = id
		rs, err := load.Run(ctx, o)
		if err != nil {
			stopProgress()
			return err
		}
		results = append(results, rs...)
	}
	stopProgress()
	cs, _ := all.Registry().Select(o.Codecs) // load.Run has checked the IDs
	e := env.Collect(started.UTC(), moduleVersions(cs))
	e.Settings = settings(fs)
	fin := time.Now().UTC()
	rep := load.Report{Schema: load.Schema, Env: e, Transport: results, Finished: &fin}
	rep.Host, _ = os.Hostname() // "" when unknown
	if err := load.Write(w, *format, rep); err != nil {
		return fmt.Errorf("write %s: %w", outName(*outFile), err)
	}
	return commit(true)
}

// startCPUProfile profiles the process into dir/name (dir is made if
// missing) until stop is called.
func startCPUProfile(dir, name string) (stop func(), err error) {
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

// serveInProcess starts a server with sf's options on a free loopback port
// and returns its base URL; stop shuts it down and waits for it.
func serveInProcess(ctx context.Context, sf serverFlags) (url string, stop func(), err error) {
	sopts, err := sf.options()
	if err != nil {
		return "", nil, err
	}
	srv, err := server.New(sopts)
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		srv.Close()
		return "", nil, fmt.Errorf("load: %w", err)
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx, ln) }()
	return "http://" + ln.Addr().String(), func() {
		cancel()
		<-done
	}, nil
}

// raiseNoFile raises the soft RLIMIT_NOFILE to the hard limit and fails
// when that is still below need.
func raiseNoFile(need uint64) error {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return fmt.Errorf("load: getrlimit: %w", err)
	}
	if rl.Cur < rl.Max {
		rl.Cur = rl.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
			return fmt.Errorf("load: raise open file limit to %d: %w", rl.Max, err)
		}
	}
	if rl.Cur < need {
		return fmt.Errorf("load: open file limit %d is below the %d this run needs (raise it with ulimit -n, or use fewer -conns)", rl.Cur, need)
	}
	return nil
}
