package toolchain

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/results"
)

// ChildRole is the childproc role of a worker (see Serve).
const ChildRole = "run-worker"

// Config is the matrix a worker measures, as the driver sends it: the
// flags of serbench run that select and time cells.
type Config struct {
	// Codecs are the IDs that the driver resolved -codecs to (its groups
	// expanded over the driver's codecs, in order; IDs of codecs a build
	// lacks included, which that build leaves out), nil for each build's
	// default set. Scenarios are the scenario IDs and groups of
	// -scenarios (none: every scenario); Corpus is -corpus.
	Codecs    []string `json:"codecs,omitempty"`
	Scenarios []string `json:"scenarios,omitempty"`
	Corpus    string   `json:"corpus,omitempty"`
	// Benchtime is the target duration of one sample of one cell.
	Benchtime time.Duration `json:"benchtime"`
	// Baseline is the codec the speed-ups are over.
	Baseline string `json:"baseline"`
	// LiveHeap is the GC condition, as bench.Options.LiveHeap.
	LiveHeap int64 `json:"live_heap"`
}

// Hello is a worker's first answer: the matrix is prepared and calibrated,
// or Error says why not.
type Hello struct {
	Env env.Env `json:"env"`
	// Timed is the number of cells a round samples.
	Timed    int      `json:"timed"`
	Warnings []string `json:"warnings,omitempty"`
	// Absent maps the IDs of codecs serbench has but this build lacks to
	// why (codec.Registry.Absent).
	Absent map[string]string `json:"absent,omitempty"`
	Error  string            `json:"error,omitempty"`
}

type request struct {
	Cmd string `json:"cmd"` // "round" or "results"
}

type reply struct {
	Results []results.Row `json:"results,omitempty"`
	Error   string        `json:"error,omitempty"`
}

// Prepared is what a worker's prepare function returns.
type Prepared struct {
	Session  *bench.Session
	Env      env.Env
	Warnings []string
	Absent   map[string]string
}

// Serve is the worker's side: it reads a Config from in, prepares it with
// prepare, writes a Hello to out, and then answers requests until in
// closes. An error of prepare goes to the driver in the Hello, and Serve
// returns nil; it returns an error when in or out fails.
func Serve(ctx context.Context, in io.Reader, out io.Writer, prepare func(context.Context, Config) (Prepared, error)) error {
	dec, enc := json.NewDecoder(bufio.NewReader(in)), json.NewEncoder(out)
	var cfg Config
	if err := dec.Decode(&cfg); err != nil {
		return fmt.Errorf("toolchain: reading the worker's config: %w", err)
	}
	p, err := prepare(ctx, cfg)
	if err != nil {
		return enc.Encode(Hello{Error: err.Error()})
	}
	defer p.Session.Close()
	if err := enc.Encode(Hello{Env: p.Env, Timed: p.Session.Timed(), Warnings: p.Warnings, Absent: p.Absent}); err != nil {
		return err
	}
	for {
		var req request
		if err := dec.Decode(&req); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return fmt.Errorf("toolchain: reading a request: %w", err)
		}
		var rep reply
		switch req.Cmd {
		case "round":
			if err := p.Session.Round(ctx); err != nil {
				rep.Error = err.Error()
			}
		case "results":
			rep.Results = p.Session.Results()
		default:
			rep.Error = fmt.Sprintf("unknown request %q", req.Cmd)
		}
		if err := enc.Encode(rep); err != nil {
			return err
		}
	}
}

// worker is the driver's handle on one worker process.
type worker struct {
	spec   Spec
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	dec    *json.Decoder
	enc    *json.Encoder
	stderr *childproc.Head
	hello  Hello
}

// start runs exe as a worker, sends cfg and waits for its Hello.
func start(ctx context.Context, exe string, s Spec, cfg Config) (*worker, error) {
	cmd, err := childproc.Command(ctx, exe, ChildRole, "")
	if err != nil {
		return nil, err
	}
	w := &worker{spec: s, cmd: cmd, stderr: childproc.NewHead()}
	cmd.Stderr = w.stderr
	if w.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := childproc.Start(cmd); err != nil {
		return nil, fmt.Errorf("toolchain %s: starting its serbench: %w", s, err)
	}
	w.dec, w.enc = json.NewDecoder(bufio.NewReader(stdout)), json.NewEncoder(w.stdin)
	if err := w.enc.Encode(cfg); err != nil {
		return nil, w.fail(err)
	}
	if err := w.dec.Decode(&w.hello); err != nil {
		return nil, w.fail(err)
	}
	if w.hello.Error != "" {
		w.close()
		return nil, fmt.Errorf("toolchain %s: %s", s, w.hello.Error)
	}
	return w, nil
}

// call sends one request and reads its reply.
func (w *worker) call(cmd string) (reply, error) {
	var rep reply
	if err := w.enc.Encode(request{Cmd: cmd}); err != nil {
		return rep, w.fail(err)
	}
	if err := w.dec.Decode(&rep); err != nil {
		return rep, w.fail(err)
	}
	if rep.Error != "" {
		return rep, fmt.Errorf("toolchain %s: %s", w.spec, rep.Error)
	}
	return rep, nil
}

// fail ends the worker and returns an error naming it, with the first line
// of what it wrote to standard error when it wrote anything.
func (w *worker) fail(err error) error {
	w.close()
	why := err.Error()
	if head := strings.TrimSpace(w.stderr.String()); head != "" {
		why, _, _ = strings.Cut(head, "\n")
	}
	return fmt.Errorf("toolchain %s: its serbench failed: %s", w.spec, why)
}

// close ends the worker: its standard input closes and it exits.
func (w *worker) close() {
	w.stdin.Close()
	w.cmd.Wait()
}
