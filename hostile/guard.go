package hostile

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/serbench/serbench/internal/childproc"
)

// Outcome is what happened when a decoder got one input.
type Outcome string

// The outcomes. Rejected and Accepted are the decoder's answers; the others
// are findings. Timeout, StackOverflow, OutOfMemory and Crashed end the child
// process (Killed counts them); Skipped inputs were not tried because a
// target reached Limits.MaxKills.
const (
	Rejected      Outcome = "rejected"       // returned an error
	Accepted      Outcome = "accepted"       // returned nil
	Panicked      Outcome = "panic"          // panicked; recovered in the child
	Timeout       Outcome = "timeout"        // still running after Limits.Time; killed
	StackOverflow Outcome = "stack-overflow" // exceeded Limits.Stack (fatal in Go)
	OutOfMemory   Outcome = "out-of-memory"  // the runtime could not get memory under the rlimit
	Crashed       Outcome = "crash"          // the child died another way (a panic in another goroutine, a signal)
	Skipped       Outcome = "skipped"        // not tried
)

// Killed reports whether o ended the child process.
func (o Outcome) Killed() bool {
	return o == Timeout || o == StackOverflow || o == OutOfMemory || o == Crashed
}

// Result is what one input did.
type Result struct {
	// Input is the input's name.
	Input string `json:"input"`
	// Size is the input's length in bytes.
	Size int `json:"size"`
	// Outcome is what happened.
	Outcome Outcome `json:"outcome"`
	// Message is the first line of the error, the panic value or the fatal
	// error, at most 200 bytes.
	Message string `json:"message,omitempty"`
	// Origin is, for a panic, the function in which it arose.
	Origin string `json:"origin,omitempty"`
	// Alloc is the bytes the decode allocated on the heap (runtime.MemStats
	// TotalAlloc around the call); -1 when the child died.
	Alloc int64 `json:"alloc_bytes"`
	// Time is how long the decode took; for a killed child, how long the
	// parent waited before it died.
	Time time.Duration `json:"time_ns"`
}

// Limits bound one child process. The zero value means the defaults.
type Limits struct {
	// Time is how long one input may take before the parent kills the
	// child. Default DefaultTime.
	Time time.Duration `json:"time_ns"`
	// Memory is the child's memory limit in bytes: debug.SetMemoryLimit,
	// and an rlimit of Memory+Stack+256 MiB on the data segment where the
	// OS has one (Linux; not in a -race binary). Default DefaultMemory.
	Memory int64 `json:"memory_bytes"`
	// Stack is the largest goroutine stack in bytes (debug.SetMaxStack;
	// Go's own default is 1 GiB on 64-bit systems). Default DefaultStack.
	Stack int64 `json:"stack_bytes"`
	// MaxKills is how many inputs of one target may end a child before the
	// rest are skipped. Default DefaultMaxKills.
	MaxKills int `json:"max_kills"`
}

// Defaults and ranges of Limits.
const (
	DefaultTime     = 2 * time.Second
	DefaultMemory   = 512 << 20
	DefaultStack    = 64 << 20
	DefaultMaxKills = 8

	MinMemory = 32 << 20
	MinStack  = 1 << 20
)

// Effective returns l with defaults filled in, or an error naming a limit
// out of range.
func (l Limits) Effective() (Limits, error) {
	l.Time = cmp.Or(l.Time, DefaultTime)
	l.Memory = cmp.Or(l.Memory, DefaultMemory)
	l.Stack = cmp.Or(l.Stack, DefaultStack)
	l.MaxKills = cmp.Or(l.MaxKills, DefaultMaxKills)
	switch {
	case l.Time < 0:
		return l, fmt.Errorf("hostile: invalid time limit %v (must be positive)", l.Time)
	case l.Memory < MinMemory:
		return l, fmt.Errorf("hostile: invalid memory limit %d bytes (at least %d)", l.Memory, MinMemory)
	case l.Stack < MinStack:
		return l, fmt.Errorf("hostile: invalid stack limit %d bytes (at least %d)", l.Stack, MinStack)
	case l.MaxKills < 0:
		return l, fmt.Errorf("hostile: invalid MaxKills %d (at least 1)", l.MaxKills)
	}
	return l, nil
}

// startGrace is how long a child may take to start, read its job and warm
// up before the first input's time limit starts.
const startGrace = 10 * time.Second

// Guard runs decoders on inputs in child processes.
type Guard struct {
	// Limits bound each child.
	Limits Limits
	// Exe is the executable to start as a child; it must serve ChildRole
	// with ServeChild. "" means os.Executable().
	Exe string
}

// Run decodes each input with the decoder that the child's Lookup returns
// for target, warm being the valid encoding decoded once first, and returns
// one Result per input in order. An input that ends the child (timeout,
// stack overflow, out of memory, crash) is reported as such and the next
// input goes to a new child; after Limits.MaxKills of those, the rest are
// Skipped. Run's error is for what stops it running at all: bad limits, a
// child that cannot start, a target the child does not know, ctx done.
func (g Guard) Run(ctx context.Context, target string, warm []byte, inputs []Input) ([]Result, error) {
	lim, err := g.Limits.Effective()
	if err != nil {
		return nil, err
	}
	results := make([]Result, 0, len(inputs))
	kills := 0
	for len(results) < len(inputs) {
		if kills >= lim.MaxKills {
			for _, in := range inputs[len(results):] {
				results = append(results, Result{Input: in.Name, Size: len(in.Data), Outcome: Skipped, Alloc: -1})
			}
			break
		}
		rest := inputs[len(results):]
		got, death, err := g.child(ctx, lim, target, warm, rest)
		if err != nil {
			return nil, err
		}
		for i, m := range got {
			results = append(results, Result{Input: rest[i].Name, Size: len(rest[i].Data), Outcome: m.Outcome,
				Message: m.Message, Origin: m.Origin, Alloc: m.Alloc, Time: time.Duration(m.Nanos)})
		}
		if death != nil {
			in := rest[len(got)]
			death.Input, death.Size = in.Name, len(in.Data)
			results = append(results, *death)
			kills++
		}
	}
	return results, nil
}

// child runs one child on inputs until it finishes or dies. It returns the
// messages for the inputs done and, if the child died, a Result for the
// input in flight.
func (g Guard) child(ctx context.Context, lim Limits, target string, warm []byte, inputs []Input) ([]message, *Result, error) {
	// The child is killed below, on ctx or the time limit, after which its
	// pipe is drained; a context on the command would race with that.
	cmd, err := childproc.Command(context.Background(), g.Exe, ChildRole, "")
	if err != nil {
		return nil, nil, fmt.Errorf("hostile: %w", err)
	}
	body, err := json.Marshal(job{Target: target, Memory: lim.Memory, Stack: lim.Stack, Warm: warm, Inputs: inputs})
	if err != nil {
		return nil, nil, fmt.Errorf("hostile: encoding the job: %w", err)
	}
	cmd.Stdin = bytes.NewReader(body)
	stderr := childproc.NewHead()
	cmd.Stderr = stderr
	cmd.Stdout = nil
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("hostile: %w", err)
	}
	defer r.Close()
	cmd.ExtraFiles = []*os.File{w}
	if err := childproc.Start(cmd); err != nil {
		w.Close()
		return nil, nil, fmt.Errorf("hostile: starting a child: %w", err)
	}
	w.Close()

	lines := make(chan message)
	readErr := make(chan error, 1)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			var m message
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				readErr <- fmt.Errorf("hostile: bad line from child: %q: %w", sc.Text(), err)
				return
			}
			lines <- m
		}
		readErr <- sc.Err()
	}()

	var got []message
	ready := false
	timer := time.NewTimer(startGrace + lim.Time)
	defer timer.Stop()
	started := time.Now()
	kill := func() {
		cmd.Process.Kill()
		for range lines { // drain so the reader ends
		}
		cmd.Wait()
	}
	for {
		select {
		case <-ctx.Done():
			kill()
			return nil, nil, ctx.Err()
		case <-timer.C:
			kill()
			if !ready {
				return nil, nil, fmt.Errorf("hostile: target %q: child not ready after %v: %s", target, startGrace+lim.Time, childproc.Line(stderr.String()))
			}
			return got, &Result{Outcome: Timeout, Alloc: -1, Time: time.Since(started),
				Message: fmt.Sprintf("still running after %v; killed", lim.Time)}, nil
		case m, ok := <-lines:
			if !ok {
				waitErr := cmd.Wait()
				if err := <-readErr; err != nil {
					return nil, nil, err
				}
				if waitErr == nil && len(got) == len(inputs) {
					return got, nil, nil
				}
				if !ready {
					return nil, nil, fmt.Errorf("hostile: target %q: child died before it was ready (%v): %s", target, waitErr, childproc.Line(stderr.String()))
				}
				d := death(childproc.Classify(stderr.String(), waitErr))
				d.Time = time.Since(started)
				return got, &d, nil
			}
			switch {
			case m.Fatal != "":
				kill()
				return nil, nil, errors.New(m.Fatal)
			case m.Ready:
				ready = true
			default:
				got = append(got, m)
			}
			timer.Reset(lim.Time)
			started = time.Now()
		}
	}
}

// death is the Result of an input that ended the child as d says.
func death(d childproc.Death) Result {
	r := Result{Outcome: Crashed, Message: d.Message, Alloc: -1}
	switch d.Cause {
	case childproc.StackOverflow:
		r.Outcome = StackOverflow
	case childproc.OutOfMemory:
		r.Outcome = OutOfMemory
	}
	return r
}
