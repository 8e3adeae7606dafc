package gencheck

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// ErrNoProtoc is returned by a protoc job when protoc is not on the PATH. It
// wraps ErrMissingTool.
var ErrNoProtoc = fmt.Errorf("protoc not found on PATH (run scripts/install-codegen-tools.sh): %w", ErrMissingTool)

// Plugin is one protoc plugin run by a protoc job.
type Plugin struct {
	// Tool is the plugin's name as a go.mod tool directive names it, which is
	// also the name protoc knows it by ("protoc-gen-go").
	Tool string
	// Opts is the plugin's parameter string, passed as --NAME_out=Opts:DIR.
	Opts string
}

// outFlag returns the protoc flag that runs p with output to dir:
// protoc-gen-NAME takes --NAME_out.
func (p Plugin) outFlag(dir string) string {
	name := strings.TrimPrefix(p.Tool, "protoc-gen-")
	return fmt.Sprintf("--%s_out=%s:%s", name, p.Opts, dir)
}

// protocJob returns the Job that compiles SchemaDir/serbench.proto with
// plugins, in order, all writing into dir.
func protocJob(name, dir string, outputs []string, plugins ...Plugin) Job {
	return protocFileJob(name, dir, SchemaDir, "serbench.proto", outputs, plugins...)
}

// protocFileJob returns the Job that compiles includeDir/file (includeDir
// relative to the module root, with forward slashes, or absolute) with
// plugins, in order, all writing into dir.
func protocFileJob(name, dir, includeDir, file string, outputs []string, plugins ...Plugin) Job {
	return Job{Name: name, Dir: dir, Outputs: outputs, run: func(ctx context.Context, root, outDir string) error {
		if _, err := exec.LookPath("protoc"); err != nil {
			return ErrNoProtoc
		}
		inc := filepath.FromSlash(includeDir)
		if !filepath.IsAbs(inc) {
			inc = filepath.Join(root, inc)
		}
		args := []string{"-I", inc}
		for _, p := range plugins {
			bin, err := goCmd(ctx, root, "tool", "-n", p.Tool)
			if err != nil {
				return err
			}
			args = append(args, "--plugin="+p.Tool+"="+bin, p.outFlag(outDir))
		}
		args = append(args, file)
		cmd := exec.CommandContext(ctx, "protoc", args...)
		cmd.Dir = root
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("protoc %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return nil
	}}
}

// ProtocVersion returns protoc's own report of its version ("libprotoc 3.21.12").
func ProtocVersion(ctx context.Context) (string, error) {
	if _, err := exec.LookPath("protoc"); err != nil {
		return "", fmt.Errorf("gencheck: %w", ErrNoProtoc)
	}
	out, err := exec.CommandContext(ctx, "protoc", "--version").Output()
	if err != nil {
		return "", fmt.Errorf("gencheck: protoc --version: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// messageField matches a field of message type in serbench.proto, up to
// its semicolon (protocPackageJob).
var messageField = regexp.MustCompile(`(?m)^(\s+(?:repeated )?(?:google\.protobuf\.Timestamp|[A-Z]\w*) \w+ = \d+);`)

// protocPackageJob returns the Job that compiles a copy of
// SchemaDir/serbench.proto named file whose proto package is pkg instead
// of serbench, with plugins, all writing into dir: the same messages and
// field numbers, so the same wire format, under other full names, so that
// both sets of generated types can be linked into one program (protobuf-go
// refuses two registrations of one name).
//
// With lazy, every field whose type is a message (a line "TYPE name = N;"
// or "repeated TYPE name = N;" with TYPE capitalised or
// google.protobuf.Timestamp) gets the option [lazy = true].
func protocPackageJob(name, dir, file, pkg string, lazy bool, outputs []string, plugins ...Plugin) Job {
	return Job{Name: name, Dir: dir, Outputs: outputs, run: func(ctx context.Context, root, outDir string) error {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(SchemaDir), "serbench.proto"))
		if err != nil {
			return err
		}
		const decl = "\npackage serbench;\n"
		if n := bytes.Count(src, []byte(decl)); n != 1 {
			return fmt.Errorf("serbench.proto: %d lines %q, want 1", n, strings.TrimSpace(decl))
		}
		tmp, err := os.MkdirTemp("", "gencheck-proto")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		renamed := bytes.Replace(src, []byte(decl), []byte("\npackage "+pkg+";\n"), 1)
		if lazy {
			renamed = messageField.ReplaceAll(renamed, []byte("$1 [lazy = true];"))
		}
		if err := os.WriteFile(filepath.Join(tmp, file), renamed, 0o644); err != nil {
			return err
		}
		return protocFileJob(name, dir, filepath.ToSlash(tmp), file, outputs, plugins...).run(ctx, root, outDir)
	}}
}
