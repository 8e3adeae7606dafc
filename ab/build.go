package ab

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A side is one revision built and ready to run.
type side struct {
	rev  Revision
	tree string   // the top folder of the revision's tree: a worktree, or the checkout's own
	dir  string   // where the go command runs: Options.Dir's folder in the revision's tree
	bins []string // the test binaries: one, or one per code layout (Options.Layouts)
	pkg  string   // the package's folder, the binaries' working directory
}

// label names the side in errors: "base main (1a2b3c4d5e6f)".
func (s *side) label(which string) string { return which + " " + s.rev.String() }

// build builds the test binaries of pkg in s.dir into s.bins (`go test
// -c -o BIN PKG`; with more than one, BIN K with -ldflags=-randlayout=K)
// and finds the package's folder; starting is called with K-1 before each
// build. A failed build is an error with the go
// command's first error line; a package without test files is
// ErrNoBenchmarks.
func (s *side) build(ctx context.Context, pkg string, starting func(k int)) error {
	var out bytes.Buffer
	for k, bin := range s.bins {
		starting(k)
		args := []string{"test", "-c", "-o", bin}
		if len(s.bins) > 1 {
			args = append(args, fmt.Sprintf("-ldflags=-randlayout=%d", k+1))
		}
		cmd := exec.CommandContext(ctx, "go", append(args, pkg)...)
		cmd.Dir = s.dir
		out.Reset()
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("build failed: %s", s.relative(buildError(out.String(), err)))
		}
		if _, err := os.Stat(bin); errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%w: %s has no test files", ErrNoBenchmarks, pkg)
		}
	}
	cmd := exec.CommandContext(ctx, "go", "list", "-f", "{{.Dir}}", pkg)
	cmd.Dir = s.dir
	out.Reset()
	cmd.Stderr = &out
	dir, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("go list %s: %s", pkg, s.relative(buildError(out.String(), err)))
	}
	s.pkg = strings.TrimSpace(string(dir))
	return nil
}

// relative writes the paths of msg inside the revision's tree relative to
// its top, so that a message does not name Run's temporary folder:
// "stat sub: directory not found".
func (s *side) relative(msg string) string {
	if s.tree == "" {
		return msg
	}
	return strings.ReplaceAll(msg, s.tree+string(filepath.Separator), "")
}

// buildError is the first line of the go command's output that says what
// went wrong: not the "# package" header, download progress or the final
// FAIL line; err's text when there is none.
func buildError(output string, err error) string {
	for _, l := range strings.Split(output, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "", strings.HasPrefix(l, "#"), strings.HasPrefix(l, "go: downloading "), strings.HasPrefix(l, "FAIL"):
			continue
		}
		return l
	}
	return err.Error()
}

// invoke runs s's test binary (its first, or that of the layout of round
// r) once with args in the package's folder and returns its standard
// output. A binary that fails is an error with the line that says why.
func (s *side) invoke(ctx context.Context, r int, args []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, s.bins[r/2%len(s.bins)], args...)
	cmd.Dir = s.pkg
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("test binary failed (%v): %s", err, failure(stdout.String()+"\n"+stderr.String()))
	}
	return stdout.Bytes(), nil
}

// failure picks the line of a failed test binary's output that says why:
// the first "--- FAIL" line with the message indented under it, or the
// first panic, or else the last line that is not the bare "FAIL".
func failure(output string) string {
	lines := strings.Split(output, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "--- FAIL"):
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], " ") {
				return t + ": " + strings.TrimSpace(lines[i+1])
			}
			return t
		case strings.HasPrefix(t, "panic:"), strings.HasPrefix(t, "fatal error:"):
			return t
		}
	}
	last := ""
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" && t != "FAIL" && !strings.HasPrefix(t, "exit status") {
			last = t
		}
	}
	return last
}
