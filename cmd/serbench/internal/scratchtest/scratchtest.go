// Package scratchtest holds what the tests of serbench's CLI that work in
// a scratch module share (the go command, the codegen tools), and, in its
// own test, the real-world corpus walk-through, which runs for minutes
// and so gets its own test binary and timeout apart from cmd/serbench's.
package scratchtest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// NeedCodegenTools skips the test when protoc or flatc 2.0.8 is missing,
// except under CI=true, where scripts/install-codegen-tools.sh installs
// them and a missing one fails the test.
func NeedCodegenTools(t testing.TB) {
	t.Helper()
	skip := t.Skipf
	if os.Getenv("CI") == "true" {
		skip = t.Fatalf
	}
	for _, tool := range []string{"flatc", "protoc"} {
		if _, err := exec.LookPath(tool); err != nil {
			skip("%s is not installed (scripts/install-codegen-tools.sh installs it)", tool)
		}
	}
	if out, _ := exec.Command("flatc", "--version").Output(); strings.TrimSpace(string(out)) != "flatc version 2.0.8" {
		skip("flatc reports %q; init -codegen flatbuffers wants flatc version 2.0.8", bytes.TrimSpace(out))
	}
}

// GoCmd runs the go command in dir with -mod=mod (a scratch module has
// no go.sum) and returns its standard output, within 3 minutes. A failure
// that looks like an unreachable module proxy skips the test; another
// fails it with the command's output.
func GoCmd(t testing.TB, dir string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		for _, s := range []string{"dial tcp", "no such host", "connection refused", "i/o timeout", "network is unreachable", "proxy.golang.org"} {
			if strings.Contains(stderr.String(), s) {
				t.Skipf("go %s: the module proxy is unreachable: %s", strings.Join(args, " "), stderr.Bytes())
			}
		}
		t.Fatalf("go %s: %v\n%s\n%s", strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return out
}
