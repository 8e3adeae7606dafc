package probe

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/childproc"
)

// ChildRole is the internal/childproc role in which Isolator starts its
// executable to run one cell, with the argument "PROBE_ID CODEC_ID". A main
// package that uses Isolator serves the role with Child (childproc.Main,
// first thing in main and TestMain).
const ChildRole = "probe"

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

// Isolator runs cells in child processes, one per cell. The zero value
// runs the current executable (os.Executable) with the default limits.
type Isolator struct {
	// Exe is the executable to start; it must serve ChildRole with Child.
	// "" means os.Executable().
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
	cmd, err := childproc.Command(cctx, iso.Exe, ChildRole, p.ID+" "+id)
	if err != nil {
		cell.Error = fmt.Sprintf("cannot start a child process: %v", err)
		return cell
	}
	var stdout bytes.Buffer
	stderr := childproc.NewHead()
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	if err := childproc.Start(cmd); err != nil {
		cell.Error = fmt.Sprintf("cannot start a child process: %v", err)
		return cell
	}
	var overMemory atomic.Bool
	stopWatch := childproc.WatchRSS(cmd.Process, maxRSS, &overMemory)
	waitErr := cmd.Wait()
	stopWatch()
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
		cell.Error = fmt.Sprintf("child process answered %q, not a cell", childproc.Line(stdout.String()))
		return cell
	}
	cell.Error = "crashed: " + childproc.Classify(stderr.String(), waitErr).Message
	return cell
}

// Child runs the cell that spec (ChildRole's argument, "PROBE_ID
// CODEC_ID") names, in this process, with the goroutine stack limited to
// ChildMaxStack, and writes the cell to w as JSON. lookup finds a codec by
// ID (codec.Registry.Lookup). An unknown probe or codec is an error; a
// library failure is a cell. A library that recurses without end kills
// the process (that is what the parent is there to see).
func Child(w io.Writer, spec string, lookup func(id string) (codec.Codec, bool)) error {
	probeID, codecID, ok := strings.Cut(spec, " ")
	if !ok {
		return fmt.Errorf("probe: child spec %q: want \"PROBE_ID CODEC_ID\"", spec)
	}
	p, ok := Lookup(probeID)
	if !ok {
		return fmt.Errorf("probe: child: unknown probe %q", probeID)
	}
	c, ok := lookup(codecID)
	if !ok {
		return fmt.Errorf("probe: child: unknown codec %q", codecID)
	}
	if err := childproc.SetLimits(childproc.Limits{Stack: ChildMaxStack}); err != nil {
		return err
	}
	return json.NewEncoder(w).Encode(RunCell(c, p))
}
