package toolchain

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
// when it is not installed; left as it is when Spec.Go is "") and
// GOEXPERIMENT to its experiments. A toolchain that does not exist, cannot
// be fetched, or is older than the module's go line fails the build with
// the go command's own reason.
//
// A Spec with a Module is built against a copy of the module's go.mod and
// go.sum in a temporary folder: go get -modfile=COPY Module there, then go
// build -modfile=COPY, so the module's own go.mod is never written. The
// requirements of that version come along as go get resolves them. A
// version that does not exist fails the build with go get's reason.
type GoBuilder struct {
	// Dir is the module's root folder, which holds its go.mod; "" means
	// the current directory.
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
	env := append(os.Environ(), "GOEXPERIMENT="+s.Experiment)
	if s.Go != "" {
		env = append(env, "GOTOOLCHAIN="+s.Go)
	}
	build := []string{"build", "-o", out, pkg}
	if s.Module.Path != "" {
		tmp, err := os.MkdirTemp("", "serbench-mod-")
		if err != nil {
			return fmt.Errorf("toolchain %s: %w", s, err)
		}
		defer os.RemoveAll(tmp)
		modfile := filepath.Join(tmp, "go.mod")
		for _, name := range []string{"go.mod", "go.sum"} {
			data, err := os.ReadFile(filepath.Join(b.Dir, name))
			if errors.Is(err, os.ErrNotExist) && name == "go.sum" {
				continue
			}
			if err == nil {
				err = os.WriteFile(filepath.Join(tmp, name), data, 0o644)
			}
			if err != nil {
				return fmt.Errorf("toolchain %s: %w", s, err)
			}
		}
		// -modfile is refused in workspace mode: the copy stands alone.
		env = append(env, "GOWORK=off")
		if err := b.goCommand(ctx, env, "get", "-modfile="+modfile, s.Module.String()); err != nil {
			return fmt.Errorf("toolchain %s: go get %s failed: %s", s, s.Module, err)
		}
		build = []string{"build", "-modfile=" + modfile, "-o", out, pkg}
	}
	if err := b.goCommand(ctx, env, build...); err != nil {
		return fmt.Errorf("toolchain %s: build failed: %s", s, err)
	}
	return nil
}

// goCommand runs the go command in b.Dir; its error is the go command's
// last message (reason).
func (b GoBuilder) goCommand(ctx context.Context, env []string, args ...string) error {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = b.Dir
	cmd.Env = env
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Run(); err != nil {
		return errors.New(reason(output.String(), err))
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

// Linked returns the modules whose packages the package pkg of the module
// in dir links, by path, each with the version its go.mod selects: go list
// -deps. The main module is left out. A -mod that names a module not in
// the list would change nothing in the build.
func Linked(ctx context.Context, dir, pkg string) (map[string]string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}}{{end}}{{end}}", pkg)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("toolchain: go list -deps %s: %s", pkg, reason(stderr.String(), err))
	}
	mods := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		if p, v, ok := strings.Cut(strings.TrimSpace(l), " "); ok {
			mods[p] = v
		}
	}
	return mods, nil
}
