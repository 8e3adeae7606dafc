// Package gencheck knows how serbench's generated code is made, so that
// `go generate` and a test run exactly the same commands: the test
// regenerates into a temporary folder and compares the result byte for byte
// with the committed files.
//
// Each Job is one protoc run. protoc itself comes from the system (Debian's
// protobuf-compiler, installed by scripts/install-codegen-tools.sh); its
// plugins are Go programs pinned as tool directives in go.mod and located with
// `go tool -n NAME`, so their versions are the module's.
package gencheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// SchemaDir is the folder of the .proto files, relative to the module root.
const SchemaDir = "schema/proto"

// Plugin is one protoc plugin run by a Job.
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

// Job is one protoc run that writes the generated files of one Go package.
type Job struct {
	// Name identifies the job on the command line of protocgen.
	Name string
	// Dir is the Go package the files go to, relative to the module root,
	// with forward slashes.
	Dir string
	// Files are the .proto files to compile, relative to SchemaDir.
	Files []string
	// Plugins run in order, all writing into Dir.
	Plugins []Plugin
	// Outputs are the names of the files the job writes into Dir.
	Outputs []string
}

const module = "github.com/serbench/serbench"

// Jobs are the project's generators: protoc-gen-go and protoc-gen-go-vtproto
// share the package codec/protobuf/pb (vtprotobuf adds methods to
// protoc-gen-go's types); protoc-gen-gogofaster writes codec/gogoproto/gogopb
// with google.protobuf.Timestamp mapped to github.com/gogo/protobuf/types.
// The schema has no go_package option: the M options give each its package.
var Jobs = []Job{
	{
		Name:  "protobuf",
		Dir:   "codec/protobuf/pb",
		Files: []string{"serbench.proto"},
		Plugins: []Plugin{
			{Tool: "protoc-gen-go", Opts: "paths=source_relative,Mserbench.proto=" + module + "/codec/protobuf/pb"},
			{Tool: "protoc-gen-go-vtproto", Opts: "paths=source_relative,features=marshal+unmarshal+size,Mserbench.proto=" + module + "/codec/protobuf/pb"},
		},
		Outputs: []string{"serbench.pb.go", "serbench_vtproto.pb.go"},
	},
	{
		Name:  "gogoproto",
		Dir:   "codec/gogoproto/gogopb",
		Files: []string{"serbench.proto"},
		Plugins: []Plugin{
			{Tool: "protoc-gen-gogofaster", Opts: "paths=source_relative" +
				",Mgoogle/protobuf/timestamp.proto=github.com/gogo/protobuf/types" +
				",Mserbench.proto=" + module + "/codec/gogoproto/gogopb" +
				",import_path=" + module + "/codec/gogoproto/gogopb"},
		},
		Outputs: []string{"serbench.pb.go"},
	},
}

// Lookup returns the Job named name.
func Lookup(name string) (Job, error) {
	names := make([]string, 0, len(Jobs))
	for _, j := range Jobs {
		if j.Name == name {
			return j, nil
		}
		names = append(names, j.Name)
	}
	return Job{}, fmt.Errorf("gencheck: unknown job %q (valid: %s)", name, strings.Join(names, ", "))
}

// ErrNoProtoc is returned by Run when protoc is not on the PATH.
var ErrNoProtoc = errors.New("gencheck: protoc not found on PATH (run scripts/install-codegen-tools.sh)")

// ModuleRoot returns the folder holding go.mod, as `go env GOMOD` reports it
// for the current directory.
func ModuleRoot(ctx context.Context) (string, error) {
	out, err := goCmd(ctx, "", "env", "GOMOD")
	if err != nil {
		return "", err
	}
	if out == "" || out == os.DevNull {
		return "", errors.New("gencheck: not inside a Go module")
	}
	return filepath.Dir(out), nil
}

// ProtocVersion returns protoc's own report of its version ("libprotoc 3.21.12").
func ProtocVersion(ctx context.Context) (string, error) {
	if _, err := exec.LookPath("protoc"); err != nil {
		return "", ErrNoProtoc
	}
	out, err := exec.CommandContext(ctx, "protoc", "--version").Output()
	if err != nil {
		return "", fmt.Errorf("gencheck: protoc --version: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Run runs j with root as the module root, writing into outDir (which must
// exist). It returns ErrNoProtoc when protoc is missing, and protoc's
// messages in the error when it fails.
func (j Job) Run(ctx context.Context, root, outDir string) error {
	if _, err := exec.LookPath("protoc"); err != nil {
		return ErrNoProtoc
	}
	args := []string{"-I", filepath.Join(root, filepath.FromSlash(SchemaDir))}
	for _, p := range j.Plugins {
		bin, err := goCmd(ctx, root, "tool", "-n", p.Tool)
		if err != nil {
			return err
		}
		args = append(args, "--plugin="+p.Tool+"="+bin, p.outFlag(outDir))
	}
	args = append(args, j.Files...)
	cmd := exec.CommandContext(ctx, "protoc", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("gencheck: job %s: protoc %s: %w: %s", j.Name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// Compare reports, in one error, every file of j.Outputs whose bytes differ
// between the folders want and got, and any file missing from either.
func (j Job) Compare(want, got string) error {
	var problems []string
	for _, name := range j.Outputs {
		w, werr := os.ReadFile(filepath.Join(want, name))
		g, gerr := os.ReadFile(filepath.Join(got, name))
		switch {
		case werr != nil:
			problems = append(problems, werr.Error())
		case gerr != nil:
			problems = append(problems, gerr.Error())
		case !bytes.Equal(w, g):
			problems = append(problems, fmt.Sprintf("%s differs from the regenerated file from line %d (%d bytes committed, %d regenerated)", name, firstDiffLine(w, g), len(w), len(g)))
		}
	}
	if extra := extraFiles(got, j.Outputs); len(extra) > 0 {
		problems = append(problems, fmt.Sprintf("the job wrote files it does not list: %s", strings.Join(extra, ", ")))
	}
	if len(problems) > 0 {
		return fmt.Errorf("gencheck: job %s: %s", j.Name, strings.Join(problems, "; "))
	}
	return nil
}

// firstDiffLine returns the 1-based number of the first line where a and b
// differ.
func firstDiffLine(a, b []byte) int {
	line := 1
	for i := 0; i < len(a) && i < len(b) && a[i] == b[i]; i++ {
		if a[i] == '\n' {
			line++
		}
	}
	return line
}

func extraFiles(dir string, known []string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return []string{err.Error()}
	}
	var extra []string
	for _, e := range entries {
		if !slices.Contains(known, e.Name()) {
			extra = append(extra, e.Name())
		}
	}
	sort.Strings(extra)
	return extra
}

// goCmd runs the go command in dir and returns its trimmed standard output.
func goCmd(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("gencheck: go %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}
