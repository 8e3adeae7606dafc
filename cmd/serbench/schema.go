package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/serbench/serbench/derive"
)

func init() {
	register("schema", "write the .proto, .avsc or .fbs schema derived from a Go type of your package", cmdSchema)
}

// schemaTestFile is the test file serbench schema adds to the user's
// package through go test -overlay: on disk it never exists.
const schemaTestFile = "zz_serbench_schema_test.go"

func cmdSchema(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("schema", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		typeName = fs.String("type", "", "the Go struct type, declared in the package PKG (required)")
		format   = fs.String("format", "proto", "the schema language: proto, avsc or fbs")
	)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench schema -type NAME [-format proto|avsc|fbs] [PKG]")
		fmt.Fprintln(stderr, "Writes to standard output the schema derived from the struct type NAME of the")
		fmt.Fprintln(stderr, "package in folder PKG (default .), the schema serbench.Benchmark's derived codecs")
		fmt.Fprintln(stderr, "use, with every lossy mapping as a comment. It runs go test in PKG with one test")
		fmt.Fprintln(stderr, "file added through -overlay (the working tree is not touched), so the module must")
		fmt.Fprintln(stderr, "require github.com/serbench/serbench.")
		fs.PrintDefaults()
	}
	help, err := parseFlagsArgs(fs, args, 0, 1, "at most one package folder")
	if help || err != nil {
		return err
	}
	if *typeName == "" {
		return usagef("schema: -type is required (the name of your Go struct type)")
	}
	f, err := derive.ParseFormat(*format)
	if err != nil {
		return usagef("schema: -format: %v", err)
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	text, err := deriveInPackage(ctx, dir, *typeName, f)
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, text)
	return err
}

var schemaTestTemplate = `package %s

// Added by serbench schema through go test -overlay; never written to disk.

import (
	serbenchDerive "github.com/serbench/serbench/derive"
	serbenchOS "os"
	serbenchReflect "reflect"
	serbenchTesting "testing"
)

func TestSerbenchDeriveSchema(t *serbenchTesting.T) {
	s, err := serbenchDerive.Derive(serbenchReflect.TypeFor[%s](), serbenchDerive.Format(%q))
	out, text := %q, ""
	if err != nil {
		out, text = %q, err.Error()
	} else {
		text = s.Text
	}
	if err := serbenchOS.WriteFile(out, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}
`

// compileError is the first "file:line:col: message" line of go output.
var compileError = regexp.MustCompile(`(?m)^\S+\.go:\d+(:\d+)?: .*$`)

// deriveInPackage derives the schema of type name in the package in dir,
// by running the derivation (package derive, the same code as the derived
// codecs) in that package's test binary. Errors: no such type, a module
// without serbench, a package that does not build, a type derive cannot
// map (one line per field).
func deriveInPackage(ctx context.Context, dir, name string, f derive.Format) (string, error) {
	pkg, err := findType("schema", dir, name)
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("schema: %w", err)
	}
	tmp, err := os.MkdirTemp("", "serbench-schema-")
	if err != nil {
		return "", fmt.Errorf("schema: %w", err)
	}
	defer os.RemoveAll(tmp)
	outFile, errFile := filepath.Join(tmp, "schema.out"), filepath.Join(tmp, "schema.err")
	src := fmt.Sprintf(schemaTestTemplate, pkg.name, name, string(f), outFile, errFile)
	testFile := filepath.Join(tmp, schemaTestFile)
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(abs, schemaTestFile): testFile}})
	if err != nil {
		return "", fmt.Errorf("schema: %w", err)
	}
	overlayFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(testFile, []byte(src), 0o600); err != nil {
		return "", fmt.Errorf("schema: %w", err)
	}
	if err := os.WriteFile(overlayFile, overlay, 0o600); err != nil {
		return "", fmt.Errorf("schema: %w", err)
	}
	cmd := exec.CommandContext(ctx, "go", "test", "-overlay", overlayFile, "-run", "^TestSerbenchDeriveSchema$", "-count", "1", ".")
	cmd.Dir = dir
	out, runErr := cmd.CombinedOutput()
	if text, err := os.ReadFile(errFile); err == nil {
		return "", fmt.Errorf("schema: %s cannot be written as %s:\n%s", name, f, text)
	}
	if text, err := os.ReadFile(outFile); err == nil {
		return string(text), nil
	}
	if runErr == nil {
		runErr = errors.New("the test did not run")
	}
	return "", goTestError(dir, out, runErr)
}

// goTestError is one line saying why go test failed in dir.
func goTestError(dir string, out []byte, err error) error {
	s := string(out)
	switch {
	case strings.Contains(s, schemaTestFile) && strings.Contains(s, "github.com/serbench/serbench/derive"):
		// The import of the added file does not resolve: no serbench in
		// the module, or one older than package derive.
		return fmt.Errorf("schema: the module of %s does not provide github.com/serbench/serbench/derive: run go get github.com/serbench/serbench@latest there", dir)
	case compileError.MatchString(s):
		return fmt.Errorf("schema: the package in %s does not build: %s", dir, compileError.FindString(s))
	}
	first, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if first == "" {
		first = err.Error()
	}
	return fmt.Errorf("schema: go test in %s failed: %s", dir, bytes.TrimSpace([]byte(first)))
}
