package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
)

// ChildRole is the child-process role (internal/childproc) that serves a
// Server with ChildOptions in its own process, so that a load
// client's figures and the server's CPU and heap figures stay apart
// (`serbench load -transport http` without -url). A program that calls
// StartProcess must serve the role with ServeChild.
const ChildRole = "api-server"

// Time limits of StartProcess.
const (
	// StartTimeout is how long the child may take to print its address.
	StartTimeout = 30 * time.Second
	// StopTimeout is how long stop waits for the child to exit after its
	// standard input closed before it kills it.
	StopTimeout = 10 * time.Second
)

// StartProcess starts this program again as a ChildRole child and returns
// the base URL it serves ("http://127.0.0.1:PORT"); stop ends it (closing
// its standard input, then killing it after StopTimeout) and waits for it.
// arg is the child's argument: "" for ChildScenarios alone, or
// CorpusArg's, which the child's main reads with ParseCorpusArg to serve a
// corpus's documents too. A child that exits, prints something else than
// its address or prints nothing within StartTimeout is an error quoting
// the start of its standard error.
func StartProcess(ctx context.Context, arg string) (url string, stop func(), err error) {
	c, err := StartChild(ctx, ChildRole, arg)
	if err != nil {
		return "", nil, err
	}
	return c.URL, func() { c.Stop() }, nil
}

// Child is a server child process of StartChild.
type Child struct {
	// URL is the base URL it serves, "http://127.0.0.1:PORT"; Pid its
	// process ID.
	URL string
	Pid int

	stop func() *os.ProcessState
}

// Stop ends the child (closing its standard input, then killing it after
// StopTimeout), waits for it and returns its state (its resource usage
// included: SysUsage). Call it once.
func (c *Child) Stop() *os.ProcessState { return c.stop() }

// StartChild starts this program again as a child in role with arg
// (internal/childproc) that serves as ServeChild does: it prints its
// loopback address as its first line and serves until its standard input
// ends. A child that exits, prints something else than its address or
// prints nothing within StartTimeout is an error quoting the start of its
// standard error.
func StartChild(ctx context.Context, role, arg string) (*Child, error) {
	cmd, err := childproc.Command(ctx, "", role, arg)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	head := childproc.NewHead()
	cmd.Stderr = head
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("server: start server process: %w", err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait() // the state is cmd.ProcessState
		close(done)
	}()
	stop := func() *os.ProcessState {
		stdin.Close()
		select {
		case <-done:
		case <-time.After(StopTimeout):
			_ = cmd.Process.Kill() // it ignored its closed stdin
			<-done
		}
		return cmd.ProcessState
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
			return &Child{URL: "http://" + addr, Pid: cmd.Process.Pid, stop: stop}, nil
		}
		stop()
		return nil, fmt.Errorf("server: server process did not start: %q %s", addr, strings.TrimSpace(head.String()))
	case <-time.After(StartTimeout):
		stop()
		return nil, fmt.Errorf("server: server process did not start within %v", StartTimeout)
	}
}

// ChildOptions are the options of the ChildRole's server over the codecs
// of reg, whose only client is the program that started it: the defaults,
// except that every codec decodes request bodies (load -transport http
// measures them all), the message budget is the largest (plan -verify
// asks for up to a million messages per second) and, that one client
// being the only one, its shares are the whole caps (plan -verify at a
// fan-out opens thousands of subscriptions to the same streams). It
// compresses for a client that asks (SSE gzip, WebSocket
// permessage-deflate), as `serbench serve -compress` does, and serves
// ChildScenarios.
func ChildOptions(reg *codec.Registry) Options {
	var o Options
	o.SSE.Gzip, o.WS.Compress = true, true
	o.Resolver.Scenarios = ChildScenarios()
	o.Resolver.Codecs = reg
	o.API.DecodeCodecs = []string{"*"}
	o.Hub.MaxTotalRate = transport.MaxMaxTotalRate
	o.Hub.MaxClientRate = transport.MaxMaxTotalRate
	o.Hub.MaxClientSubscribers = transport.DefaultMaxSubscribers
	o.Hub.MaxClientStreams = transport.DefaultMaxStreams
	return o
}

// ChildScenarios are the scenarios the ChildRole's server serves: the
// seeds and the annotation workloads (scenario.Annot), whose payloads of
// kilobytes to megabytes are where the codec is much of a server's CPU.
func ChildScenarios() []scenario.Scenario {
	return append(scenario.Seeds(), scenario.Annot()...)
}

// ServeChild is the ChildRole's body: ServeOptions with ChildOptions(reg),
// serving extra besides ChildScenarios (a scenario whose ID is already
// there is left out).
func ServeChild(stdin io.Reader, stdout io.Writer, reg *codec.Registry, extra []scenario.Scenario) error {
	o := ChildOptions(reg)
	o.Resolver.Scenarios = withScenarios(o.Resolver.Scenarios, extra)
	return ServeOptions(stdin, stdout, o)
}

// corpusArgPrefix starts a ChildRole argument that names a corpus.
const corpusArgPrefix = "corpus="

// CorpusArg is the ChildRole argument (StartProcess) asking the child to
// serve the corpus documents as well: the Go toolchain's (corpus.Toolchain)
// and, when path is not "", the user's files there (corpus.Files). path
// should be absolute: the child starts in this process's directory, but
// the argument may outlive it.
func CorpusArg(path string) string { return corpusArgPrefix + path }

// ParseCorpusArg reads a ChildRole argument: ok is false for "" (no
// corpus), and path is CorpusArg's path otherwise. Any other argument is
// an error naming it.
func ParseCorpusArg(arg string) (path string, ok bool, err error) {
	if arg == "" {
		return "", false, nil
	}
	path, ok = strings.CutPrefix(arg, corpusArgPrefix)
	if !ok {
		return "", false, fmt.Errorf("server: child argument %q: want \"\" or %q followed by a corpus path", arg, corpusArgPrefix)
	}
	return path, true, nil
}

// WithScenarios returns ChildScenarios plus those of extra whose IDs it
// does not have: what a ChildRole child given extra serves.
func WithScenarios(extra []scenario.Scenario) []scenario.Scenario {
	return withScenarios(ChildScenarios(), extra)
}

func withScenarios(base, extra []scenario.Scenario) []scenario.Scenario {
	out := slices.Clone(base)
	for _, s := range extra {
		if !slices.ContainsFunc(out, func(x scenario.Scenario) bool { return x.ID == s.ID }) {
			out = append(out, s)
		}
	}
	return out
}

// ServeOptions serves a Server with o on a free loopback port, writes the
// address to stdout as one line and serves until stdin reaches its end
// (the parent is done or gone): the body of a StartChild child.
func ServeOptions(stdin io.Reader, stdout io.Writer, o Options) error {
	srv, err := New(o)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		srv.Close()
		return err
	}
	if _, err := fmt.Fprintln(stdout, ln.Addr()); err != nil {
		srv.Close()
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		_, _ = io.Copy(io.Discard, stdin)
		cancel()
	}()
	return srv.Serve(ctx, ln)
}
