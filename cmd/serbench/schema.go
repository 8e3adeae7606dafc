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
	"time"

	serbenchlib "github.com/serbench/serbench"
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
		hints    = fs.Bool("hints", false, "print the schema-tightening hints found in the -sample value instead of a schema")
		sample   = fs.String("sample", "", "with -hints: a JSON `file` holding one value of the type (read as serbench.FromJSON does)")
		hintTime = fs.Duration("hint-time", serbenchlib.HintBudget, "with -hints: how long to time proto.Marshal per hint for the ns/op columns; 0 for sizes only")
	)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench schema -type NAME [-format proto|avsc|fbs] [PKG]")
		fmt.Fprintln(stderr, "       serbench schema -type NAME -hints -sample FILE [-hint-time D] [PKG]")
		fmt.Fprintln(stderr, "Writes to standard output the schema derived from the struct type NAME of the")
		fmt.Fprintln(stderr, "package in folder PKG (default .), the schema serbench.Benchmark's derived codecs")
		fmt.Fprintln(stderr, "use, with every lossy mapping as a comment. It runs go test in PKG with one test")
		fmt.Fprintln(stderr, "file added through -overlay (the working tree is not touched), so the module must")
		fmt.Fprintln(stderr, "require github.com/serbench/serbench. With -hints it prints instead the fields of")
		fmt.Fprintln(stderr, "the sample whose type could be tighter, with the protobuf bytes of the sample")
		fmt.Fprintln(stderr, "before and after each change (derive.FindHints).")
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
	if *hints != (*sample != "") {
		return usagef("schema: -hints and -sample go together: the hints are found in a sample value of the type")
	}
	if *hints {
		formatSet := false
		fs.Visit(func(fl *flag.Flag) { formatSet = formatSet || fl.Name == "format" })
		if formatSet {
			return usagef("schema: -format and -hints: -hints prints a table, not a schema")
		}
	}
	if *hintTime < 0 {
		return usagef("schema: -hint-time %v: want 0 or more", *hintTime)
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	var text string
	if *hints {
		text, err = hintsInPackage(ctx, dir, *typeName, *sample, *hintTime)
	} else {
		text, err = deriveInPackage(ctx, dir, *typeName, f)
	}
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, text)
	return err
}

// schemaTestTemplate is the added test file: the package name, imports,
// and the body of the test (deriveBody or hintsBody), which writes its
// result to one file or its error to another.
var schemaTestTemplate = `package %[2]s

// Added by serbench schema through go test -overlay; never written to disk.

import (
%[1]s	serbenchDerive "github.com/serbench/serbench/derive"
	serbenchOS "os"
	serbenchReflect "reflect"
	serbenchTesting "testing"
%[3]s)

var _ = serbenchReflect.TypeFor[int]

func TestSerbenchDeriveSchema(t *serbenchTesting.T) {
%[4]s
	if err := serbenchOS.WriteFile(out, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}
`

// deriveBody writes the schema of a type (name, format, out, err file).
const deriveBody = `	s, err := serbenchDerive.Derive(serbenchReflect.TypeFor[%s](), serbenchDerive.Format(%q))
	out, text := %q, ""
	if err != nil {
		out, text = %q, err.Error()
	} else {
		text = s.Text
	}`

// hintsBody writes the hints found in a sample (type name, sample file,
// timing budget in ns, out, err file).
const hintsBody = `	var hs serbenchDerive.Hints
	v, err := serbench.FromJSON[%s](%q)
	if err == nil {
		hs, err = serbenchDerive.FindHints(v)
	}
	if budget := serbenchTime.Duration(%d); err == nil && budget > 0 {
		err = hs.TimeMarshal(budget)
	}
	out, text := %q, hs.String()+"\n"
	if err != nil {
		out, text = %q, err.Error()
	} else if len(hs) == 0 {
		text = "no schema-tightening hints: no field of the sample looks like an enum, a time or a narrower number\n"
	}`

// compileError is the first "file:line:col: message" line of go output.
var compileError = regexp.MustCompile(`(?m)^\S+\.go:\d+(:\d+)?: .*$`)

// deriveInPackage derives the schema of type name in format f in the
// package in dir (runInPackage).
func deriveInPackage(ctx context.Context, dir, name string, f derive.Format) (string, error) {
	return runInPackage(ctx, dir, name, fmt.Sprintf("cannot be written as %s:\n", f), func(pkg, outFile, errFile string) string {
		return fmt.Sprintf(schemaTestTemplate, "", pkg, "", fmt.Sprintf(deriveBody, name, string(f), outFile, errFile))
	})
}

// hintsInPackage returns the table of the hints found in the JSON file
// sample, a value of type name of the package in dir (runInPackage),
// with proto.Marshal timed for budget per hint when budget > 0.
func hintsInPackage(ctx context.Context, dir, name, sample string, budget time.Duration) (string, error) {
	abs, err := filepath.Abs(sample)
	if err != nil {
		return "", fmt.Errorf("schema: -sample: %w", err)
	}
	return runInPackage(ctx, dir, name, "-hints: ", func(pkg, outFile, errFile string) string {
		return fmt.Sprintf(schemaTestTemplate, "\tserbench \"github.com/serbench/serbench\"\n", pkg, "\tserbenchTime \"time\"\n",
			fmt.Sprintf(hintsBody, name, abs, int64(budget), outFile, errFile))
	})
}

// runInPackage runs, in the test binary of the package in dir, the
// test src writes (given the package name and the files for the result
// and the error): the derivation of type name's schema or hints (package
// derive, the same code as the derived codecs). Errors: no such type, a
// module without serbench, a package that does not build, the test's own
// error after "schema: NAME what" (a type derive cannot map: one line per
// field).
func runInPackage(ctx context.Context, dir, name, what string, src func(pkg, outFile, errFile string) string) (string, error) {
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
	testFile := filepath.Join(tmp, schemaTestFile)
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(abs, schemaTestFile): testFile}})
	if err != nil {
		return "", fmt.Errorf("schema: %w", err)
	}
	overlayFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(testFile, []byte(src(pkg.name, outFile, errFile)), 0o600); err != nil {
		return "", fmt.Errorf("schema: %w", err)
	}
	if err := os.WriteFile(overlayFile, overlay, 0o600); err != nil {
		return "", fmt.Errorf("schema: %w", err)
	}
	cmd := exec.CommandContext(ctx, "go", "test", "-overlay", overlayFile, "-run", "^TestSerbenchDeriveSchema$", "-count", "1", ".")
	cmd.Dir = dir
	out, runErr := cmd.CombinedOutput()
	if text, err := os.ReadFile(errFile); err == nil {
		return "", fmt.Errorf("schema: %s %s%s", name, what, text)
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
