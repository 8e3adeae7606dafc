package scaffold

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/serbench/serbench/derive"
)

// schemaTestFile is the test file Schema and Hints add to the user's
// package through go test -overlay: on disk it never exists.
const schemaTestFile = "zz_serbench_schema_test.go"

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

// serbenchHere names the package the test is in, for its import path.
type serbenchHere struct{}

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

// convBody writes the conversion code of a type (derive's function, type
// name, package name, import path of the generated code, out, err file).
const convBody = `	text, err := serbenchDerive.%s(serbenchReflect.TypeFor[%s](), %q, serbenchReflect.TypeFor[serbenchHere]().PkgPath(), %q)
	out := %q
	if err != nil {
		out, text = %q, err.Error()
	}`

// compileError is the first "file:line:col: message" line of go output.
var compileError = regexp.MustCompile(`(?m)^\S+\.go:\d+(:\d+)?: .*$`)

// Schema returns the schema package derive writes in format f for the
// struct type name (as Init's -type takes it) seen from the package in
// dir, derived inside that package's test binary (runInPackage's errors).
func Schema(ctx context.Context, dir, name string, f derive.Format) (string, error) {
	return runInPackage(ctx, dir, name, fmt.Sprintf("cannot be written as %s:\n", f), func(p *typePkg, outFile, errFile string) string {
		return fmt.Sprintf(schemaTestTemplate, p.testImport(), p.name, "", fmt.Sprintf(deriveBody, p.testExpr(), string(f), outFile, errFile))
	})
}

// convInPackage returns the conversion code of type name of the package
// in dir made by derive's function fn (FlatBuffersGo or ProtoGo, run by
// runInPackage), for the generated code imported from genImport.
func convInPackage(ctx context.Context, dir, name, fn, genImport string) (string, error) {
	return runInPackage(ctx, dir, name, "cannot be converted by generated code ("+fn+"):\n", func(p *typePkg, outFile, errFile string) string {
		return fmt.Sprintf(schemaTestTemplate, p.testImport(), p.name, "", fmt.Sprintf(convBody, fn, p.testExpr(), p.name, genImport, outFile, errFile))
	})
}

// Hints returns the table of the schema-tightening hints found in the
// JSON file sample, a value of type name of the package in dir
// (derive.FindHints, run by runInPackage), with proto.Marshal timed for
// budget per hint when budget > 0; a sentence saying so when there are
// none.
func Hints(ctx context.Context, dir, name, sample string, budget time.Duration) (string, error) {
	abs, err := filepath.Abs(sample)
	if err != nil {
		return "", fmt.Errorf("schema: -sample: %w", err)
	}
	return runInPackage(ctx, dir, name, "-hints: ", func(p *typePkg, outFile, errFile string) string {
		return fmt.Sprintf(schemaTestTemplate, "\tserbench \"github.com/serbench/serbench\"\n"+p.testImport(), p.name, "\tserbenchTime \"time\"\n",
			fmt.Sprintf(hintsBody, p.testExpr(), abs, int64(budget), outFile, errFile))
	})
}

// runInPackage runs, in the test binary of the package in dir, the
// test src writes (given the type and the files for the result and the
// error): the derivation of type name's schema or hints (package
// derive, the same code as the derived codecs). Errors: no such type, a
// module without serbench, a package that does not build, the test's own
// error after "schema: NAME what" (a type derive cannot map: one line per
// field).
func runInPackage(ctx context.Context, dir, name, what string, src func(p *typePkg, outFile, errFile string) string) (string, error) {
	pkg, err := findType(ctx, "schema", dir, name)
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
	if err := os.WriteFile(testFile, []byte(src(pkg, outFile, errFile)), 0o600); err != nil {
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
		return fmt.Errorf("schema: the package in %s does not build: %s", dir, firstMessage(s))
	}
	msg := oneLine(s)
	if msg == "" {
		msg = err.Error()
	}
	return fmt.Errorf("schema: go test in %s failed: %s", dir, msg)
}

// firstMessage is the first "file:line:col: message" of go output with
// the indented lines that continue it ("to add:\n\tgo get ..."), on one
// line.
func firstMessage(s string) string {
	loc := compileError.FindStringIndex(s)
	msg := s[loc[0]:loc[1]]
	for _, l := range strings.Split(s[loc[1]:], "\n")[1:] {
		if !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, " ") {
			break
		}
		msg += " " + strings.TrimSpace(l)
	}
	return msg
}

// testImport is the import line the added test file needs for p: none
// for a type of the package itself.
func (p *typePkg) testImport() string {
	if p.importPath == "" {
		return ""
	}
	return fmt.Sprintf("\tserbenchType %q\n", p.importPath)
}

// testExpr is how the added test file writes p.
func (p *typePkg) testExpr() string {
	if p.importPath == "" {
		return p.typeName
	}
	return "serbenchType." + p.typeName
}
