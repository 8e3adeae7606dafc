package toolchain

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// A Builder writes a serbench binary built for s to the file out.
// Its error is one line naming s and why.
type Builder interface {
	Build(ctx context.Context, s Spec, out string) error
}

// BuilderFunc adapts a function to Builder.
type BuilderFunc func(ctx context.Context, s Spec, out string) error

// Build calls f.
func (f BuilderFunc) Build(ctx context.Context, s Spec, out string) error { return f(ctx, s, out) }

var _ Builder = BuilderFunc(nil)
var _ Builder = GoBuilder{}

// GoBuilder builds a package of the module in Dir with the go command on
// PATH: go build -o OUT Package, with GOTOOLCHAIN set to the Spec's
// toolchain (the go command fetches it through the module proxy, GOPROXY,
// when it is not installed) and GOEXPERIMENT to its experiments. A
// toolchain that does not exist, cannot be fetched, or is older than the
// module's go line fails the build with the go command's own reason.
type GoBuilder struct {
	// Dir is the module's root folder; "" means the current directory.
	Dir string
	// Package is what to build, "./cmd/serbench" when "".
	Package string
}

// Build runs go build for s.
func (b GoBuilder) Build(ctx context.Context, s Spec, out string) error {
	pkg := b.Package
	if pkg == "" {
		pkg = "./cmd/serbench"
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, pkg)
	cmd.Dir = b.Dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN="+s.Go, "GOEXPERIMENT="+s.Experiment)
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("toolchain %s: build failed: %s", s, reason(output.String(), err))
	}
	return nil
}

// reason is the go command's last message in output: its last line that
// starts a message (not indented), with the indented lines after it, and
// without "go: downloading" progress lines; err's text when there is none.
func reason(output string, err error) string {
	var lines []string
	for _, l := range strings.Split(output, "\n") {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "go: downloading ") {
			continue
		}
		if l[0] != ' ' && l[0] != '\t' {
			lines = lines[:0]
		}
		lines = append(lines, strings.TrimSpace(l))
	}
	if len(lines) == 0 {
		return err.Error()
	}
	return strings.Join(lines, " ")
}
