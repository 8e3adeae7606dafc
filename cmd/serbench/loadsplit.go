package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/load"
	"github.com/serbench/serbench/transport/server"
)

// The childproc roles of a split push load (load -servers, -clients).
const (
	// loadServerRole serves push streams: its argument is a
	// loadServerSpec in JSON.
	loadServerRole = "load-server"
	// loadClientRole is the load subcommand with the flags of its
	// argument, a JSON array, writing its report as JSON to stdout.
	loadClientRole = "load-client"
)

func init() {
	childRoles[loadServerRole] = loadServerChild
	childRoles[loadClientRole] = loadClientChild
}

// loadServerSpec is what a server process of a split load serves: the
// server flags given to load, fitted (serverFlags.fitLoad) to Conns
// connections at Rate messages/s each.
type loadServerSpec struct {
	Args  []string `json:"args"`
	Conns int      `json:"conns"`
	Rate  float64  `json:"rate"`
	// CPUProfile, when set, is the folder the process writes its CPU
	// profile into, as server-<i>.pprof (load -cpuprofile).
	CPUProfile string `json:"cpuprofile,omitempty"`
	Index      int    `json:"index,omitempty"`
}

// splitDropped are the load flags the parent of a split load keeps to
// itself: each client process gets its own -url, -conns and -setup, and
// writes JSON to its standard output.
var splitDropped = []string{"servers", "clients", "url", "conns", "setup", "o", "format", "cpuprofile"}

// planSplit is load.PlanSplit of the push load o with -servers and
// -clients under this machine's limits; a limit it cannot read leaves the
// load in this process unless -servers or -clients asks for processes.
func planSplit(o *load.Options, set map[string]bool, servers, clients int) (load.Split, error) {
	lim, err := load.ReadProcessLimits()
	if err != nil {
		if set["servers"] || set["clients"] {
			return load.Split{}, err
		}
		return load.Split{InProcess: true}, nil
	}
	fanout := max(o.Fanout, 1)
	if o.Conns < 1 || o.Conns%fanout != 0 {
		return load.Split{InProcess: true}, nil // Validate names the flags
	}
	sp, err := load.PlanSplit(o.Conns, fanout, servers, clients, o.URL != "", lim)
	if err != nil {
		return sp, usageError{err}
	}
	return sp, nil
}

// loadSplit runs the push load of s over the processes of sp: it starts
// sp.Servers server processes (none with -url), then sp.Clients client
// processes of this program at once, each a load of its share with the
// flags in fs and a warm-up long enough for every connection, samples
// their resident sets, and writes one report merged from theirs
// (load.MergeSplit) in format to outFile (or stdout).
func loadSplit(ctx context.Context, stdout, stderr io.Writer, fs *flag.FlagSet, s load.Session, sp load.Split, format, outFile string) error {
	o := s.Options
	if err := checkSplitOptions(s); err != nil {
		return usageError{err}
	}
	dst, err := openOutput(stdout, outFile)
	if err != nil {
		return err
	}
	defer dst.discard()
	if o.Setup == 0 {
		o.Setup = min(250*time.Millisecond+time.Duration(o.Conns)*time.Millisecond, 10*time.Minute)
	}
	serverArgs, clientArgs := splitArgs(fs)
	fmt.Fprintf(stderr, "serbench load: %d connections over %d server and %d client processes, warm-up %v\n", o.Conns, sp.Servers, sp.Clients, o.Setup)

	urls := []string{o.URL}
	var servers []*server.Child
	stopServers := func() (peak int64, cpu time.Duration) {
		for _, c := range servers {
			ps := c.Stop()
			peak += peakRSS(ps)
			cpu += cpuTime(ps)
		}
		servers = nil
		return peak, cpu
	}
	defer stopServers()
	if sp.Servers > 0 {
		urls = make([]string, sp.Servers)
		for i := range sp.Servers {
			spec, _ := json.Marshal(loadServerSpec{Args: serverArgs, Conns: serverConns(sp, i), Rate: o.Rate, CPUProfile: s.CPUProfile, Index: i + 1})
			c, err := server.StartChild(ctx, loadServerRole, string(spec))
			if err != nil {
				return fmt.Errorf("load: server process %d: %w", i+1, err)
			}
			servers = append(servers, c)
			urls[i] = c.URL
		}
	}
	mem := load.Processes{Servers: sp.Servers, Clients: sp.Clients, Conns: o.Conns}
	for _, c := range servers {
		mem.ServerBaseRSSBytes += residentBytes(c.Pid)
	}

	clients := make([]*splitClient, len(sp.Shares))
	for j, sh := range sp.Shares {
		args := append(slices.Clone(clientArgs), "-url="+urls[sh.Server], fmt.Sprintf("-conns=%d", sh.Conns), "-clients=1", "-setup="+o.Setup.String(), "-format=json")
		if s.CPUProfile != "" {
			args = append(args, "-cpuprofile="+filepath.Join(s.CPUProfile, fmt.Sprintf("client-%d", j+1)))
		}
		c, err := startSplitClient(ctx, args)
		if err != nil {
			for _, c := range clients[:j] {
				c.kill()
			}
			return fmt.Errorf("load: client process %d: %w", j+1, err)
		}
		clients[j] = c
	}
	started := time.Now()
	stopProgress := sync.OnceFunc(newProgress(stderr, started, "seconds").every(time.Second, int((o.Setup + s.PushLength()).Seconds())))
	defer stopProgress()

	// The idle sample: every connection open, no message sent yet.
	var sampled sync.WaitGroup
	var serverIdleCPU, clientIdleCPU time.Duration // at the idle sample
	sampledCPU := false
	waited := make(chan struct{})
	sampled.Go(func() {
		t := time.NewTimer(o.Setup * 9 / 10)
		defer t.Stop()
		select {
		case <-waited:
			return
		case <-t.C:
		}
		sampledCPU = true
		for _, c := range servers {
			mem.ServerIdleRSSBytes += residentBytes(c.Pid)
			cpu, err := env.ProcessCPU(c.Pid)
			serverIdleCPU += cpu
			sampledCPU = sampledCPU && err == nil
		}
		for _, c := range clients {
			cpu, err := env.ProcessCPU(c.cmd.Process.Pid)
			clientIdleCPU += cpu
			sampledCPU = sampledCPU && err == nil
		}
		mem.IdleSubscribers = subscribers(ctx, urls)
		for _, c := range clients {
			mem.ClientIdleRSSBytes += residentBytes(c.cmd.Process.Pid)
		}
	})
	reps := make([]load.Report, len(clients))
	var errs []error
	var clientCPU time.Duration
	for j, c := range clients {
		out, ps, err := c.wait()
		mem.ClientPeakRSSBytes += peakRSS(ps)
		clientCPU += cpuTime(ps)
		if err == nil {
			reps[j], err = load.ReadReport(bytes.NewReader(out), fmt.Sprintf("client process %d", j+1))
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("load: client process %d: %w", j+1, err))
		}
	}
	close(waited)
	sampled.Wait()
	stopProgress()
	var serverCPU time.Duration
	mem.ServerPeakRSSBytes, serverCPU = stopServers()
	if sampledCPU {
		mem.ServerCPUSeconds = (serverCPU - serverIdleCPU).Seconds()
		mem.ClientCPUSeconds = (clientCPU - clientIdleCPU).Seconds()
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	m, err := load.MergeSplit(reps, sp, mem, load.MergeOptions{})
	if err != nil {
		return err
	}
	for _, x := range m.Warnings {
		fmt.Fprintf(stderr, "serbench: warning: %s\n", document.TerminalText(x))
	}
	return dst.write(func(w io.Writer) error { return load.WriteMerge(w, format, m) })
}

// checkSplitOptions checks the push load of s for each scenario before any
// process starts (load.Options.Effective with a placeholder URL; the
// descriptors are load.PlanSplit's).
func checkSplitOptions(s load.Session) error {
	ids := s.Scenarios
	if len(ids) == 0 {
		ids = []string{""}
	}
	for _, id := range ids {
		o := s.Options
		o.Scenario = id
		if o.URL == "" {
			o.URL = "http://127.0.0.1:1"
		}
		if _, err := o.Effective(); err != nil {
			return err
		}
	}
	return nil
}

// serverConns is the connections of the client processes that load
// server i of sp.
func serverConns(sp load.Split, i int) int {
	n := 0
	for _, sh := range sp.Shares {
		if sh.Server == i {
			n += sh.Conns
		}
	}
	return n
}

// splitArgs returns the flags given in fs as -name=value: the server flags
// (serverFlags) for the server processes, and every flag but splitDropped
// for the client processes.
func splitArgs(fs *flag.FlagSet) (serverArgs, clientArgs []string) {
	sfs := flag.NewFlagSet("", flag.ContinueOnError)
	var sf serverFlags
	sf.register(sfs)
	fs.Visit(func(f *flag.Flag) {
		arg := "-" + f.Name + "=" + f.Value.String()
		if sfs.Lookup(f.Name) != nil {
			serverArgs = append(serverArgs, arg)
		}
		if !slices.Contains(splitDropped, f.Name) {
			clientArgs = append(clientArgs, arg)
		}
	})
	return serverArgs, clientArgs
}

// splitClient is a running client process of a split load.
type splitClient struct {
	cmd    *exec.Cmd
	stdout bytes.Buffer
	stderr *childproc.Head
}

func startSplitClient(ctx context.Context, args []string) (*splitClient, error) {
	arg, _ := json.Marshal(args)
	cmd, err := childproc.Command(ctx, "", loadClientRole, string(arg))
	if err != nil {
		return nil, err
	}
	c := &splitClient{cmd: cmd, stderr: childproc.NewHead()}
	cmd.Stdout, cmd.Stderr = &c.stdout, c.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return c, nil
}

// wait waits for the client and returns its standard output and state; a
// failed client is an error quoting the start of its standard error.
func (c *splitClient) wait() ([]byte, *os.ProcessState, error) {
	if err := c.cmd.Wait(); err != nil {
		return nil, c.cmd.ProcessState, fmt.Errorf("%w: %s", err, strings.TrimSpace(c.stderr.String()))
	}
	return c.stdout.Bytes(), c.cmd.ProcessState, nil
}

func (c *splitClient) kill() {
	_ = c.cmd.Process.Kill()
	_ = c.cmd.Wait()
}

// subscribers sums the subscriptions the servers at urls hold (GET
// /stats, 10 s to answer); 0 when one of them does not answer, so that a
// partial count is not taken for the whole.
func subscribers(ctx context.Context, urls []string) int {
	n := 0
	for _, u := range urls {
		st, err := load.ServerStats(ctx, u)
		if err != nil {
			return 0
		}
		n += st.Subscribers
	}
	return n
}

// residentBytes is env.ResidentBytes of pid, 0 where unreadable.
func residentBytes(pid int) int64 {
	n, err := env.ResidentBytes(pid)
	if err != nil {
		return 0
	}
	return n
}

// peakRSS is the peak resident set of an exited process (getrusage
// ru_maxrss: KiB on Linux, bytes on macOS), 0 when unknown.
func peakRSS(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024
}

// cpuTime is the user and system CPU time of an exited process
// (getrusage), 0 when unknown.
func cpuTime(ps *os.ProcessState) time.Duration {
	if ps == nil {
		return 0
	}
	return ps.UserTime() + ps.SystemTime()
}

// loadServerChild serves loadServerRole: the server of a loadServerSpec
// (its argument) on a free loopback port until its standard input ends.
func loadServerChild(arg string) error {
	var spec loadServerSpec
	if err := json.Unmarshal([]byte(arg), &spec); err != nil {
		return fmt.Errorf("load-server: spec %q: %w", arg, err)
	}
	fs := flag.NewFlagSet(loadServerRole, flag.ContinueOnError)
	var sf serverFlags
	sf.register(fs)
	if err := fs.Parse(spec.Args); err != nil {
		return fmt.Errorf("load-server: %w", err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	sf.fitLoad(set, spec.Conns, spec.Rate)
	o, err := sf.options()
	if err != nil {
		return err
	}
	if spec.CPUProfile != "" {
		stop, err := load.StartCPUProfile(spec.CPUProfile, fmt.Sprintf("server-%d.pprof", spec.Index))
		if err != nil {
			return err
		}
		defer stop()
	}
	return server.ServeOptions(os.Stdin, os.Stdout, o)
}

// loadClientChild serves loadClientRole: the load subcommand with the
// flags of its argument, a JSON array.
func loadClientChild(arg string) error {
	var args []string
	if err := json.Unmarshal([]byte(arg), &args); err != nil {
		return fmt.Errorf("load-client: flags %q: %w", arg, err)
	}
	ctx, stop := interruptible(context.Background())
	defer stop()
	return cmdLoad(ctx, os.Stdout, os.Stderr, args)
}
