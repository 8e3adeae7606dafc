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
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/derive"
)

// schemaTestFile is the test file Schema and Hints add to the user's
// package through go test -overlay: on disk it never exists.
const schemaTestFile = "zz_serbench_schema_test.go"

// schemaTestHeader is the start of the added test file: the package
// name and the extra imports.
const schemaTestHeader = `package %[1]s

// Added by serbench schema through go test -overlay; never written to disk.

import (
%[2]s	serbenchDerive "github.com/serbench/serbench/derive"
	serbenchOS "os"
	serbenchReflect "reflect"
	serbenchTesting "testing"
)

var _ = serbenchReflect.TypeFor[int]
var _ = serbenchDerive.Derive

// serbenchHere names the package the test is in, for its import path.
type serbenchHere struct{}
`

// schemaTestFunc is one test of the added file: its number and its body
// (deriveBody, convBody or hintsBody), which writes its result to one
// file or its error to another.
const schemaTestFunc = `
func TestSerbenchDerive%[1]d(t *serbenchTesting.T) {
%[2]s
	if err := serbenchOS.WriteFile(out, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}
`

// job is one derivation runInPackage runs in the package's test binary:
// what follows the type's name in its error ("cannot be written as
// proto:\n"), and the test's body given the type and the files for its
// result and its error.
type job struct {
	what string
	body func(p *typePkg, outFile, errFile string) string
}

// schemaJob derives the schema in format f, the fields skip names left
// out.
func schemaJob(f derive.Format, skip []string) job {
	return job{fmt.Sprintf("cannot be written as %s:\n", f), func(p *typePkg, outFile, errFile string) string {
		return fmt.Sprintf(deriveBody, goStrings(skip), p.testExpr(), string(f), outFile, errFile)
	}}
}

// convJob derives the conversion code of derive's function fn
// (FlatBuffersGo or ProtoGo) for the generated code imported from
// genImport, the fields skip names left out.
func convJob(fn, genImport string, skip []string) job {
	return job{"cannot be converted by generated code (" + fn + "):\n", func(p *typePkg, outFile, errFile string) string {
		return fmt.Sprintf(convBody, goStrings(skip), fn, p.testExpr(), p.name, genImport, outFile, errFile)
	}}
}

// deriveBody writes the schema of a type (name, format, out, err file).
const deriveBody = `	s, err := serbenchDerive.Options{Skip: %s}.Derive(serbenchReflect.TypeFor[%s](), serbenchDerive.Format(%q))
	out, text := %q, ""
	if err != nil {
		out, text = %q, err.Error()
	} else {
		text = s.Text
	}`

// hintsBody writes the hints found in a sample (type name, sample file,
// whether to ignore unknown members, skip paths, timing budget in ns,
// out, err file).
const hintsBody = `	var hs serbenchDerive.Hints
	v, _, err := serbench.FromJSONWith[%s](%q, serbench.SampleOptions{IgnoreUnknown: %t})
	var unknown *serbench.UnknownMembersError
	if serbenchErrors.As(err, &unknown) {
		err = serbenchFmt.Errorf("%%w\n\t(serbench schema -ignore-unknown ignores them)", err)
	}
	if err == nil {
		hs, err = serbenchDerive.Options{Skip: %s}.FindHints(v)
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

// convBody writes the conversion code of a type (skip paths, derive's
// function, type name, package name, import path of the generated code,
// out, err file).
const convBody = `	text, err := serbenchDerive.Options{Skip: %s}.%s(serbenchReflect.TypeFor[%s](), %q, serbenchReflect.TypeFor[serbenchHere]().PkgPath(), %q)
	out := %q
	if err != nil {
		out, text = %q, err.Error()
	}`

// compileError is the first "file:line:col: message" line of go output.
var compileError = regexp.MustCompile(`(?m)^\S+\.go:\d+(:\d+)?: .*$`)

// Schema returns the schema package derive writes in format f for the
// struct type name (as Init's -type takes it) seen from the package in
// dir, with the fields skip names left out (derive.Options.Skip), derived
// inside that package's test binary (runInPackage's errors).
func Schema(ctx context.Context, dir, name string, f derive.Format, skip []string) (string, error) {
	texts, err := runInPackage(ctx, dir, name, "", []job{schemaJob(f, skip)})
	if err != nil {
		return "", err
	}
	return texts[0], nil
}

// goStrings is ss as a Go expression: nil, or a []string literal.
func goStrings(ss []string) string {
	if len(ss) == 0 {
		return "nil"
	}
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

// Hints returns the table of the schema-tightening hints found in the
// JSON file sample, a value of type name of the package in dir
// (derive.FindHints, run by runInPackage), with proto.Marshal timed for
// budget per hint when budget > 0, the fields skip names left out; a
// sentence saying so when there are none. The sample is read as
// serbench.FromJSONWith reads it, with IgnoreUnknown set to
// ignoreUnknown; without it, members the type has no field for are an
// error listing them, whose last line names serbench schema's
// -ignore-unknown.
func Hints(ctx context.Context, dir, name, sample string, ignoreUnknown bool, skip []string, budget time.Duration) (string, error) {
	abs, err := filepath.Abs(sample)
	if err != nil {
		return "", fmt.Errorf("schema: -sample: %w", err)
	}
	texts, err := runInPackage(ctx, dir, name, "\tserbench \"github.com/serbench/serbench\"\n\tserbenchErrors \"errors\"\n\tserbenchFmt \"fmt\"\n\tserbenchTime \"time\"\n",
		[]job{{"-hints: ", func(p *typePkg, outFile, errFile string) string {
			return fmt.Sprintf(hintsBody, p.testExpr(), abs, ignoreUnknown, goStrings(skip), int64(budget), outFile, errFile)
		}}})
	if err != nil {
		return "", err
	}
	return texts[0], nil
}

// runInPackage runs jobs, in one run of the test binary of the package
// in dir with a test file added (imports are its extra import lines):
// the derivations of type name's schemas, conversion code or hints
// (package derive, the same code as the derived codecs). It returns each
// job's text. Errors: no such type, a module without serbench, a package
// that does not build, the first failing job's own error after "schema:
// NAME what" (a type derive cannot map: one line per field).
func runInPackage(ctx context.Context, dir, name, imports string, jobs []job) ([]string, error) {
	pkg, err := findType(ctx, "schema", dir, name)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	tmp, err := os.MkdirTemp("", "serbench-schema-")
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	defer os.RemoveAll(tmp)
	src := fmt.Sprintf(schemaTestHeader, pkg.name, imports+pkg.testImport())
	for i, j := range jobs {
		src += fmt.Sprintf(schemaTestFunc, i, j.body(pkg, filepath.Join(tmp, fmt.Sprintf("%d.out", i)), filepath.Join(tmp, fmt.Sprintf("%d.err", i))))
	}
	testFile := filepath.Join(tmp, schemaTestFile)
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(abs, schemaTestFile): testFile}})
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	overlayFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(testFile, []byte(src), 0o600); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	if err := os.WriteFile(overlayFile, overlay, 0o600); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	cmd := exec.CommandContext(ctx, "go", "test", "-overlay", overlayFile, "-run", "^TestSerbenchDerive[0-9]+$", "-count", "1", ".")
	cmd.Dir = dir
	out, runErr := cmd.CombinedOutput()
	texts := make([]string, len(jobs))
	for i, j := range jobs {
		if text, err := os.ReadFile(filepath.Join(tmp, fmt.Sprintf("%d.err", i))); err == nil {
			return nil, fmt.Errorf("schema: %s %s%s", name, j.what, withAllSkips(string(text)))
		}
		text, err := os.ReadFile(filepath.Join(tmp, fmt.Sprintf("%d.out", i)))
		if err != nil {
			if runErr == nil {
				runErr = errors.New("the test did not run")
			}
			return nil, goTestError(dir, out, runErr)
		}
		texts[i] = string(text)
	}
	return texts, nil
}

// skipAdvice finds the -skip path in derive's advice on a field it
// cannot map ("... and serbench init -skip Spec.Overhead, or ...").
var skipAdvice = regexp.MustCompile(`serbench init -skip ([^\s,]+),`)

// withAllSkips is derive's error text with, when it advises -skip for
// two fields or more, a last line giving them all in one flag value, so
// that a type that holds a library's unmappable type in many places (a
// quantity in every resource list) is fixed in one run.
func withAllSkips(text string) string {
	var paths []string
	seen := map[string]bool{}
	for _, m := range skipAdvice.FindAllStringSubmatch(text, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			paths = append(paths, m[1])
		}
	}
	if len(paths) < 2 {
		return text
	}
	return strings.TrimRight(text, "\n") + "\n(all of them: -skip " + strings.Join(paths, ",") + ", with any paths -skip already gave)"
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
