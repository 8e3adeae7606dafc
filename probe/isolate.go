package probe

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/serbench/serbench/codec"
)

// ChildEnv is the environment variable through which Isolator asks its
// executable to run one cell: "PROBE_ID CODEC_ID". A main package that
// uses Isolator checks it first thing and, when it is set, calls Child and
// exits.
const ChildEnv = "SERBENCH_PROBE_CELL"

// Limits of a child process, with their defaults.
const (
	// ChildMaxStack is the goroutine stack limit Child sets
	// (debug.SetMaxStack): 64 MiB, a sixteenth of Go's default on 64-bit
	// systems, so a library that recurses without end dies sooner and
	// smaller. The deep-nesting probe runs in 16 MiB in every codec of
	// codec/all.
	ChildMaxStack = 64 << 20
	// DefaultChildTimeout is Isolator.Timeout's default: 30 seconds.
	DefaultChildTimeout = 30 * time.Second
	// DefaultChildMaxRSS is Isolator.MaxRSS's default: 1 GiB resident.
	DefaultChildMaxRSS = 1 << 30
)

// maxStderr caps how much of a child's standard error is kept: a stack
// overflow prints a long trace, and only its first lines are read.
const maxStderr = 64 << 10

// Isolator runs cells in child processes, one per cell. The zero value
// runs the current executable (os.Executable) with the default limits.
type Isolator struct {
	// Exe is the executable to start; it must call Child when ChildEnv is
	// set. "" means os.Executable().
	Exe string
	// Timeout bounds one child; 0 means DefaultChildTimeout. A child past
	// it is killed and the cell is an Error.
	Timeout time.Duration
	// MaxRSS is the most resident memory a child may use, in bytes,
	// checked every 20 ms where /proc/PID/statm exists (Linux); 0 means
	// DefaultChildMaxRSS. A child above it is killed and the cell is an
	// Error.
	MaxRSS int64
}

// Cell runs probe p through codec c in a child process and returns the
// child's cell. A child that crashes (a fatal stack overflow, say), is
// killed for time or memory, or answers nonsense gives an Error cell that
// says so.
func (iso Isolator) Cell(ctx context.Context, c codec.Codec, p Probe) Cell {
	id := c.Info().ID
	cell := Cell{Codec: id, Probe: p.ID, Status: Error}
	exe := iso.Exe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			cell.Error = fmt.Sprintf("cannot start a child process: %v", err)
			return cell
		}
	}
	timeout := iso.Timeout
	if timeout <= 0 {
		timeout = DefaultChildTimeout
	}
	maxRSS := iso.MaxRSS
	if maxRSS <= 0 {
		maxRSS = DefaultChildMaxRSS
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, exe)
	cmd.Env = append(os.Environ(), ChildEnv+"="+p.ID+" "+id)
	var stdout bytes.Buffer
	stderr := &capped{max: maxStderr}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	if err := cmd.Start(); err != nil {
		cell.Error = fmt.Sprintf("cannot start a child process: %v", err)
		return cell
	}
	var overMemory atomic.Bool
	stop := make(chan struct{})
	go watchRSS(cmd.Process, maxRSS, &overMemory, stop)
	waitErr := cmd.Wait()
	close(stop)
	switch {
	case overMemory.Load():
		cell.Error = fmt.Sprintf("killed: resident memory above %d MiB", maxRSS>>20)
		return cell
	case ctx.Err() != nil:
		cell.Error = fmt.Sprintf("interrupted: %v", ctx.Err())
		return cell
	case cctx.Err() != nil:
		cell.Error = fmt.Sprintf("killed: no answer within %v", timeout)
		return cell
	}
	if waitErr == nil {
		var got Cell
		if err := json.Unmarshal(stdout.Bytes(), &got); err == nil && got.Probe == p.ID && got.Codec == id {
			return got
		}
		cell.Error = fmt.Sprintf("child process answered %q, not a cell", cut(stdout.String(), 200))
		return cell
	}
	cell.Error = "crashed: " + crashReason(stderr.buf.String(), waitErr)
	return cell
}

// crashReason picks the line of a dead child's standard error that says
// why: "fatal error: stack overflow (runtime: goroutine stack exceeds
// 268435456-byte limit)", or the first line and the exit status.
func crashReason(stderr string, waitErr error) string {
	lines := strings.Split(stderr, "\n")
	find := func(prefix string) string {
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return strings.TrimSpace(l)
			}
		}
		return ""
	}
	if fatal := find("fatal error:"); fatal != "" {
		if why := find("runtime: goroutine stack exceeds"); why != "" {
			return fatal + " (" + why + ")"
		}
		return fatal
	}
	first := strings.TrimSpace(lines[0])
	if first == "" {
		return waitErr.Error()
	}
	return cut(first, 200) + " (" + waitErr.Error() + ")"
}

// watchRSS kills p when its resident memory exceeds max bytes, until stop
// is closed. Where /proc/PID/statm cannot be read it does nothing.
func watchRSS(p *os.Process, max int64, over *atomic.Bool, stop <-chan struct{}) {
	path := "/proc/" + strconv.Itoa(p.Pid) + "/statm"
	page := int64(os.Getpagesize())
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			return
		}
		pages, err := strconv.ParseInt(f[1], 10, 64)
		if err == nil && pages*page > max {
			over.Store(true)
			p.Kill()
			return
		}
	}
}

// Child runs the cell that spec (ChildEnv's value, "PROBE_ID CODEC_ID")
// names, in this process, with the goroutine stack limited to
// ChildMaxStack, and writes the cell to w as JSON. lookup finds a codec by
// ID (codec.Registry.Lookup). An unknown probe or codec is an error; a
// library failure is a cell. A library that recurses without end kills
// the process (that is what the parent is there to see).
func Child(w io.Writer, spec string, lookup func(id string) (codec.Codec, bool)) error {
	probeID, codecID, ok := strings.Cut(spec, " ")
	if !ok {
		return fmt.Errorf("probe: %s=%q: want \"PROBE_ID CODEC_ID\"", ChildEnv, spec)
	}
	p, ok := Lookup(probeID)
	if !ok {
		return fmt.Errorf("probe: %s: unknown probe %q", ChildEnv, probeID)
	}
	c, ok := lookup(codecID)
	if !ok {
		return fmt.Errorf("probe: %s: unknown codec %q", ChildEnv, codecID)
	}
	debug.SetMaxStack(ChildMaxStack)
	return json.NewEncoder(w).Encode(RunCell(c, p))
}

// capped is an io.Writer that keeps the first max bytes and drops the rest.
type capped struct {
	buf bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// cut shortens s to n bytes at most, marking the cut with "...".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}
