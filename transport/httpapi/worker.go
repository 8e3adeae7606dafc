package httpapi

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
)

// WorkerRole is the child-process role (internal/childproc) in which an
// API with Options.DecodeWorkers > 0 decodes POST bodies. A program that
// sets DecodeWorkers serves the role with ServeWorker (childproc.Main,
// first thing in main, or in TestMain for a test binary).
const WorkerRole = "api-decode"

// WorkerStack is the largest goroutine stack of a worker, in bytes
// (debug.SetMaxStack): 64 MiB. A decode that recurses past it ends the
// worker (a stack overflow is fatal in Go), which is replaced.
const WorkerStack = 64 << 20

// WorkerStartTimeout is how long a worker may take to start (its first
// decode's DecodeTimeout starts after it).
const WorkerStartTimeout = 30 * time.Second

// maxWorkerFrame caps a length a worker or its parent reads from the
// other: 1 GiB, the largest MaxBodyBytes.
const maxWorkerFrame = 1 << 30

// maxWorkerMessage caps a worker's error message beyond the answer bound.
const maxWorkerMessage = 64 << 10

// Outcomes of a worker's decode (the first byte of its answer).
const (
	workerOK       byte = iota // the value, re-encoded with the request's codec
	workerRejected             // the codec's error
	workerTooLarge             // the value's encoding passes the answer bound
)

// ServeWorker is the body of WorkerRole: arg is the memory budget in
// bytes (Options.DecodeMemory), which it applies to itself
// (childproc.SetLimits: debug.SetMemoryLimit and, on Linux, RLIMIT_DATA;
// WorkerStack), then it decodes the requests its parent writes on in, one
// at a time, and writes each answer on out. A request names a scenario
// and a codec of res (nil Scenarios: scenario.Seeds), the largest answer
// and the body; the answer is the decoded value re-encoded with the same
// codec (at most the largest answer), or the codec's error. A panic of
// the codec is its error. It returns nil when in ends.
func ServeWorker(arg string, in io.Reader, out io.Writer, res transport.Resolver) error {
	mem, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || mem < MinDecodeMemory {
		return fmt.Errorf("httpapi: worker: invalid memory budget %q (want bytes >= %d)", arg, MinDecodeMemory)
	}
	if err := childproc.SetLimits(childproc.Limits{Memory: mem, Stack: WorkerStack}); err != nil {
		return err
	}
	if res.Scenarios == nil {
		res.Scenarios = scenario.Seeds()
	}
	br, bw := bufio.NewReader(in), bufio.NewWriter(out)
	if err := writeAnswer(bw, workerOK, nil); err != nil { // ready
		return fmt.Errorf("httpapi: worker: %w", err)
	}
	bindings := map[[2]string]codec.Binding{}
	for {
		sc, err := readFrame(br, maxWorkerFrame)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("httpapi: worker: %w", err)
		}
		id, err := readFrame(br, maxWorkerFrame)
		if err != nil {
			return fmt.Errorf("httpapi: worker: %w", err)
		}
		var limit uint64
		if err := binary.Read(br, binary.BigEndian, &limit); err != nil {
			return fmt.Errorf("httpapi: worker: %w", err)
		}
		body, err := readFrame(br, maxWorkerFrame)
		if err != nil {
			return fmt.Errorf("httpapi: worker: %w", err)
		}
		key := [2]string{string(sc), string(id)}
		b := bindings[key]
		if b == nil {
			if b, err = workerBind(res, key[0], key[1]); err != nil {
				return err
			}
			bindings[key] = b
		}
		outcome, payload, panicked := workerDecode(b, body, int64(limit))
		if panicked {
			delete(bindings, key) // the Binding may be left broken
		}
		if err := writeAnswer(bw, outcome, payload); err != nil {
			return fmt.Errorf("httpapi: worker: %w", err)
		}
	}
}

// workerBind binds codec id to scenario sc of res.
func workerBind(res transport.Resolver, sc, id string) (codec.Binding, error) {
	ss, err := scenario.Select(res.Scenarios, []string{sc})
	if err != nil {
		return nil, fmt.Errorf("httpapi: worker: %w", err)
	}
	cs, err := res.Codecs.Select([]string{id})
	if err != nil {
		return nil, fmt.Errorf("httpapi: worker: %w", err)
	}
	b, err := cs[0].Bind(ss[0].Value())
	if err != nil {
		return nil, fmt.Errorf("httpapi: worker: %w", err)
	}
	return b, nil
}

// workerDecode decodes body with b and re-encodes the value, refusing an
// encoding over limit bytes.
func workerDecode(b codec.Binding, body []byte, limit int64) (outcome byte, payload []byte, panicked bool) {
	defer func() {
		if p := recover(); p != nil {
			outcome, payload, panicked = workerRejected, message(fmt.Sprintf("panic: %v", p)), true
		}
	}()
	out, err := codec.UnmarshalUntrusted(b, body)
	if err == nil {
		out, err = codec.Value(b, out)
	}
	if err != nil {
		return workerRejected, message(err.Error()), false
	}
	data, err := codec.Encode(b, out)
	if err != nil {
		return workerRejected, message("re-encoding the decoded value: " + err.Error()), false
	}
	if int64(len(data)) > limit {
		return workerTooLarge, strconv.AppendInt(nil, int64(len(data)), 10), false
	}
	return workerOK, data, false
}

// message is s, cut to maxWorkerMessage bytes.
func message(s string) []byte {
	return []byte(s[:min(len(s), maxWorkerMessage)])
}

// readFrame reads a length, at most max, then that many bytes.
func readFrame(r io.Reader, max int64) ([]byte, error) {
	var n uint32
	if err := binary.Read(r, binary.BigEndian, &n); err != nil {
		return nil, err
	}
	if int64(n) > max {
		return nil, fmt.Errorf("frame of %d bytes, more than %d", n, max)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, fmt.Errorf("frame of %d bytes: %w", n, err)
	}
	return b, nil
}

func writeFrame(w io.Writer, b []byte) error {
	if err := binary.Write(w, binary.BigEndian, uint32(len(b))); err != nil {
		return err
	}
	_, err := w.Write(b)
	return err
}

func writeAnswer(w *bufio.Writer, outcome byte, payload []byte) error {
	if err := w.WriteByte(outcome); err != nil {
		return err
	}
	if err := writeFrame(w, payload); err != nil {
		return err
	}
	return w.Flush()
}

// worker is one WorkerRole child, decoding one body at a time.
type worker struct {
	cmd       *exec.Cmd
	in, out   *os.File // our ends of its standard input and output
	br        *bufio.Reader
	head      *childproc.Head // its standard error
	over      atomic.Bool     // WatchRSS killed it
	stopWatch func()
	exited    chan struct{} // closed when it has exited; then waitErr is set
	waitErr   error
}

// startWorker starts a worker whose resident memory may not pass mem
// bytes.
func startWorker(exe string, mem int64) (*worker, error) {
	cmd, err := childproc.Command(context.Background(), exe, WorkerRole, strconv.FormatInt(mem, 10))
	if err != nil {
		return nil, fmt.Errorf("httpapi: %w", err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("httpapi: worker pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("httpapi: worker pipe: %w", err)
	}
	w := &worker{cmd: cmd, in: inW, out: outR, br: bufio.NewReader(outR), head: childproc.NewHead(), exited: make(chan struct{})}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, w.head
	err = childproc.Start(cmd)
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("httpapi: start decode worker: %w", err)
	}
	w.stopWatch = childproc.WatchRSS(cmd.Process, mem, &w.over)
	go func() {
		w.waitErr = cmd.Wait()
		close(w.exited)
	}()
	_ = w.out.SetReadDeadline(time.Now().Add(WorkerStartTimeout))
	if _, err := w.br.ReadByte(); err != nil {
		w.stop()
		return nil, fmt.Errorf("httpapi: decode worker did not start: %v %s", err, childproc.Line(w.head.String()))
	}
	if _, err := readFrame(w.br, 0); err != nil {
		w.stop()
		return nil, fmt.Errorf("httpapi: decode worker did not start: %v %s", err, childproc.Line(w.head.String()))
	}
	return w, nil
}

// Errors of a decode whose worker ended before it answered; decode wraps
// them with why.
var (
	errWorkerDied   = errors.New("decode worker died")
	errWorkerMemory = errors.New("decode worker over its memory budget")
)

// decode sends one request and reads its answer by deadline. On any
// error but a workerRejected or workerTooLarge outcome the worker is
// stopped (killed if need be) and must not be used again.
func (w *worker) decode(deadline time.Time, scenarioID, codecID string, limit int64, body []byte) (outcome byte, payload []byte, err error) {
	_ = w.in.SetWriteDeadline(deadline)
	_ = w.out.SetReadDeadline(deadline)
	bw := bufio.NewWriter(w.in)
	err = writeFrame(bw, []byte(scenarioID))
	if err == nil {
		err = writeFrame(bw, []byte(codecID))
	}
	if err == nil {
		err = binary.Write(bw, binary.BigEndian, uint64(limit))
	}
	if err == nil {
		err = writeFrame(bw, body)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		outcome, err = w.br.ReadByte()
	}
	if err == nil {
		// The value's encoding, at most limit, or a message.
		payload, err = readFrame(w.br, limit+maxWorkerMessage)
	}
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			w.stop()
			return 0, nil, err
		}
		w.stop()
		if w.over.Load() {
			return 0, nil, errWorkerMemory
		}
		d := childproc.Classify(w.head.String(), w.waitErr)
		if d.Cause == childproc.OutOfMemory {
			return 0, nil, fmt.Errorf("%w (%s)", errWorkerMemory, d.Message)
		}
		return 0, nil, fmt.Errorf("%w: %s", errWorkerDied, d.Message)
	}
	return outcome, payload, nil
}

// stop kills the worker and waits for it.
func (w *worker) stop() {
	_ = w.cmd.Process.Kill()
	<-w.exited
	w.stopWatch()
	w.in.Close()
	w.out.Close()
}

// decodeInWorker is decodeInto's decode in a worker, with the slot and
// the client's share taken: it waits for a worker until timer fires (at
// deadline),
// starting one where none runs, and stops it at the deadline or at its
// memory budget. The worker's answer, the value re-encoded, is decoded
// into dv here.
func (e *entry) decodeInWorker(client string, data []byte, dv reflect.Value, deadline time.Time, timer *time.Timer) error {
	var w *worker
	select {
	case w = <-e.lim.workers:
	case <-timer.C:
		return fmt.Errorf("httpapi: %w: no decode worker free within %v (%d workers: DecodeWorkers, serve -api-decode-workers; %s)", errBusy, e.lim.timeout, cap(e.lim.workers), e.lim.use(client))
	}
	var err error
	if w == nil {
		if w, err = startWorker(e.lim.exe, e.lim.memory); err != nil {
			e.lim.workers <- nil
			return err
		}
		deadline = time.Now().Add(e.lim.timeout) // the start does not count
	}
	limit := e.lim.ratio*int64(len(data)) + AnswerSlack
	id := e.c.Info().ID
	outcome, payload, err := w.decode(deadline, e.sc.ID, id, limit, data)
	if err != nil {
		e.lim.workers <- nil // stopped: the next decode starts another
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			return fmt.Errorf("httpapi: %w: decoding %d bytes with %s took more than %v (DecodeTimeout, serve -api-decode-timeout); its worker was stopped (%s)", errBusy, len(data), id, e.lim.timeout, e.lim.use(client))
		case errors.Is(err, errWorkerMemory):
			return fmt.Errorf("httpapi: %w: decoding %d bytes with %s took more than %d MiB resident in its worker (DecodeMemory, serve -api-decode-memory); the worker was stopped (%s)", errMemory, len(data), id, e.lim.memory>>20, e.lim.use(client))
		}
		return fmt.Errorf("httpapi: %w: decoding %d bytes with %s: %v", errBadRequest, len(data), id, err)
	}
	e.lim.workers <- w
	switch outcome {
	case workerOK:
	case workerTooLarge:
		return fmt.Errorf("httpapi: %w: the answer is %s bytes, more than MaxAnswerRatio %d x the %d-byte body + %d (serve -api-max-answer-ratio)", errAnswerTooLarge, payload, e.lim.ratio, len(data), AnswerSlack)
	default:
		return fmt.Errorf("httpapi: %w: decode %d-byte body with %s: %s", errBadRequest, len(data), id, payload)
	}
	out, err := e.decodeTrusted(payload)
	if err != nil {
		return fmt.Errorf("httpapi: %s: decoding its worker's re-encoding: %w", id, err)
	}
	ov := reflect.ValueOf(out)
	if ov.Type() != e.typ {
		return fmt.Errorf("httpapi: %s decoded a %T, want %v", id, out, e.typ)
	}
	dv.Elem().Set(ov.Elem())
	return nil
}

// decodeTrusted decodes what a worker's codec wrote, in this goroutine.
func (e *entry) decodeTrusted(data []byte) (out any, err error) {
	b := e.pool.Get().(codec.Binding)
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p) // the Binding does not go back
		}
	}()
	out, err = codec.UnmarshalUntrusted(b, data)
	if err == nil {
		out, err = codec.Value(b, out)
	}
	e.pool.Put(b)
	return out, err
}

// Close stops the API's idle decode workers; a worker busy then ends
// with this process.
func (a *API) Close() {
	if a.lim.workers == nil {
		return
	}
	for {
		select {
		case w := <-a.lim.workers:
			if w != nil {
				w.stop()
			}
		default:
			return
		}
	}
}
