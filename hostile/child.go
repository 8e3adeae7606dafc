package hostile

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/serbench/serbench/internal/childproc"
)

// ChildRole is the internal/childproc role in which Run starts its
// children. A program that uses Run must serve it with ServeChild
// (childproc.Main, first thing in main, or in TestMain for a test binary).
const ChildRole = "hostile"

// resultsFD is the file descriptor on which a child writes its results
// (os/exec's ExtraFiles[0]), so that whatever a library prints on standard
// output cannot be mistaken for one.
const resultsFD = 3

// Decoder decodes one message. It returns an error when it rejects the
// message and nil when it accepts it; anything else it does (panic, hang,
// allocate without bound, overflow its stack) is what Run observes.
type Decoder func(data []byte) error

// Lookup returns the decoder that a child runs for a target name (the
// target given to Run), or an error if there is none.
type Lookup func(target string) (Decoder, error)

// job is what the parent sends a child on its standard input.
type job struct {
	Target string  `json:"target"`
	Memory int64   `json:"memory"`
	Stack  int64   `json:"stack"`
	Warm   []byte  `json:"warm"`
	Inputs []Input `json:"inputs"`
}

// message is one line a child writes on resultsFD: first one with Ready
// (or Fatal, if the child cannot run the job), then one per input in order.
type message struct {
	Ready   bool    `json:"ready,omitempty"`
	Fatal   string  `json:"fatal,omitempty"`
	Outcome Outcome `json:"outcome,omitempty"`
	Message string  `json:"message,omitempty"`
	Origin  string  `json:"origin,omitempty"`
	Alloc   int64   `json:"alloc,omitempty"`
	Nanos   int64   `json:"ns,omitempty"`
}

// ServeChild is the child side of Run, the function of ChildRole (its
// argument is unused): it reads one job from standard
// input, sets the memory limits (debug.SetMemoryLimit, debug.SetMaxStack
// and, where the OS has one, an rlimit on the data segment), looks up the
// target's decoder, decodes the valid encoding, its first half and an empty
// input once to warm caches up (not measured), then decodes each input in turn and writes its outcome,
// allocated bytes and time to file descriptor 3. A panic in the decoder is
// recovered and reported; anything worse ends the process, which Run
// reports. It returns an error only when it cannot run the job.
func ServeChild(lookup Lookup) error {
	out := os.NewFile(resultsFD, "results")
	if out == nil {
		return fmt.Errorf("hostile: child has no results file (fd %d)", resultsFD)
	}
	defer out.Close()
	return serve(lookup, os.Stdin, out)
}

func serve(lookup Lookup, in io.Reader, out io.Writer) error {
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	send := func(m message) error {
		if err := enc.Encode(m); err != nil {
			return err
		}
		return w.Flush()
	}
	var j job
	if err := json.NewDecoder(in).Decode(&j); err != nil {
		err = fmt.Errorf("hostile: child: reading the job: %w", err)
		send(message{Fatal: err.Error()})
		return err
	}
	dec, err := lookup(j.Target)
	if err != nil {
		err = fmt.Errorf("hostile: child: target %q: %w", j.Target, err)
		send(message{Fatal: err.Error()})
		return err
	}
	if err := childproc.SetLimits(childproc.Limits{Memory: j.Memory, Stack: j.Stack}); err != nil {
		send(message{Fatal: err.Error()})
		return err
	}
	// Warm up: a decoder's first call, and its first error, may fill
	// caches (reflection, JIT-compiled code, error tables) once per process.
	decode(dec, j.Warm)
	decode(dec, j.Warm[:len(j.Warm)/2])
	decode(dec, nil)
	if err := send(message{Ready: true}); err != nil {
		return err
	}
	var before, after runtime.MemStats
	for i := range j.Inputs {
		data := j.Inputs[i].Data
		runtime.ReadMemStats(&before)
		start := time.Now()
		m := decode(dec, data)
		m.Nanos = time.Since(start).Nanoseconds()
		runtime.ReadMemStats(&after)
		m.Alloc = int64(after.TotalAlloc - before.TotalAlloc)
		j.Inputs[i].Data = nil // let the collector have it
		if err := send(m); err != nil {
			return err
		}
	}
	return nil
}

// Rlimit names the rlimit a child sets under l, such as
// "RLIMIT_DATA=832 MiB", or "" where the OS has none that bounds the Go heap.
func (l Limits) Rlimit() string {
	return childproc.Limits{Memory: l.Memory, Stack: l.Stack}.String()
}

// decode calls dec on data, recovering a panic.
func decode(dec Decoder, data []byte) (m message) {
	defer func() {
		if p := recover(); p != nil {
			m.Outcome = Panicked
			m.Message = childproc.Line(fmt.Sprint(p))
			m.Origin = PanicOrigin(string(debug.Stack()))
		}
	}()
	if err := dec(data); err != nil {
		return message{Outcome: Rejected, Message: childproc.Line(err.Error())}
	}
	return message{Outcome: Accepted}
}

// PanicOrigin returns the function in which a panic arose, such as
// "github.com/google/flatbuffers/go.(*Table).Offset": the first frame of
// stack (a runtime/debug.Stack taken in the deferred function that
// recovered) after the runtime's panic machinery, "" if there is none.
func PanicOrigin(stack string) string {
	lines := strings.Split(stack, "\n")
	afterPanic := false
	for _, l := range lines {
		if strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "goroutine ") || l == "" {
			continue
		}
		fn := l
		if i := strings.LastIndexByte(fn, '('); i > 0 {
			fn = fn[:i]
		}
		if strings.HasPrefix(fn, "panic") || fn == "runtime.gopanic" {
			afterPanic = true
			continue
		}
		if !afterPanic || strings.HasPrefix(fn, "runtime.") {
			continue
		}
		return fn
	}
	return ""
}
