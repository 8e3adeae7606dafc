// Package childproc runs part of a serbench program in a child process of
// itself, so that what no Go program survives (a goroutine stack overflow,
// running out of memory, a hang) ends the child and becomes a finding the
// parent reports.
//
// The parent starts the child with Command: the same executable with Env set
// to a role ("ROLE" or "ROLE ARG"). A program whose code starts children
// calls Main first thing, in main and in TestMain (a test binary is its own
// tests' child), with the function of each role it serves.
//
// The child bounds itself with SetLimits (debug.SetMaxStack,
// debug.SetMemoryLimit and, on Linux, an RLIMIT_DATA); the parent bounds
// the child's time, may watch its resident memory (WatchRSS), keeps the
// head of its standard error (Head) and says why it died (Classify).
// serbench fidelity (package probe) and serbench hostile (package hostile)
// use it.
package childproc

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// Env is the environment variable that puts a process in child mode. Its
// value is the role, then optionally a space and the role's argument.
const Env = "SERBENCH_CHILD"

// A Role is what a child of one kind does; arg is the text after the role
// in Env ("" if none). Its error makes the child exit with status 2.
type Role func(arg string) error

// Main runs this process as a child when Env is set: it exits at once
// (status 2) when the parent that started it is gone, otherwise it calls the function
// of the role Env names, writes its error (or an unknown role) to stderr,
// and returns the exit status (0 or 2) and true. The caller exits with that
// status. When Env is not set it returns 0 and false and the program goes
// on as usual.
func Main(roles map[string]Role, stderr io.Writer) (status int, child bool) {
	spec, ok := os.LookupEnv(Env)
	if !ok {
		return 0, false
	}
	if parentGone() {
		fmt.Fprintf(stderr, "childproc: the parent that started this child is gone\n")
		return 2, true
	}
	watchParent()
	name, arg, _ := strings.Cut(spec, " ")
	role, ok := roles[name]
	if !ok {
		fmt.Fprintf(stderr, "childproc: %s=%q: unknown role %q\n", Env, spec, name)
		return 2, true
	}
	if err := role(arg); err != nil {
		fmt.Fprintf(stderr, "%s child: %v\n", name, err)
		return 2, true
	}
	return 0, true
}

// RunTests is the body of the TestMain of a test binary whose tests start
// children (a test binary is its own tests' child): it runs the process as
// the child of roles when Env is set (Main, its errors to os.Stderr) and
// otherwise the tests (m.Run, m the *testing.M), and returns the status
// the binary exits with: os.Exit(childproc.RunTests(m, roles)).
func RunTests(m interface{ Run() int }, roles map[string]Role) int {
	if status, ok := Main(roles, os.Stderr); ok {
		return status
	}
	return m.Run()
}

// Command returns the command that starts exe ("" means os.Executable())
// as a child in role with arg, its environment this process's plus
// ParentEnv and Env. ctx kills the child when done (exec.CommandContext).
// Start it with Start, so that it dies with this process (on Linux, by
// the parent-death signal Command sets).
func Command(ctx context.Context, exe, role, arg string) (*exec.Cmd, error) {
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("childproc: finding this program to re-run as a child: %w", err)
		}
	}
	spec := role
	if arg != "" {
		spec += " " + arg
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), parentEnv(), Env+"="+spec)
	setDeathSignal(cmd)
	return cmd, nil
}

// MaxStderr is how much of a child's standard error a Head from NewHead
// keeps: 64 KiB. A dying Go program says why in its first lines; the
// goroutine dump after them can be huge.
const MaxStderr = 64 << 10

// Head is an io.Writer that keeps the first max bytes written to it and
// drops the rest, reporting every write as complete.
type Head struct {
	buf bytes.Buffer
	max int
}

// NewHead returns a Head that keeps MaxStderr bytes.
func NewHead() *Head { return &Head{max: MaxStderr} }

func (h *Head) Write(p []byte) (int, error) {
	if room := h.max - h.buf.Len(); room > 0 {
		h.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// String returns what was kept.
func (h *Head) String() string { return h.buf.String() }
