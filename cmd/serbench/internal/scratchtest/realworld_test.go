package scratchtest_test

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/cmd/serbench/internal/scratchtest"
	"github.com/serbench/serbench/internal/childproc"
)

// realWorld are the types of testdata/realworld (its README.md), the
// package each goes into and the -type that names it; refused lists the
// fields for which init -codegen refuses the type, one line each, and
// skip the -skip that leaves them out.
var realWorld = []struct {
	pkg, typ, skip string
	refused        []string
}{
	{"apiuser", "example.com/apiclient.User", "", nil},
	{"imported", "apiclient.Repository", "", nil},
	{"aliased", "Account", "", nil},
	{"platform", "ConfigMap", "", nil},
	{"tree", "Node", "", nil},
	// No schema takes an interface{}: init -codegen refuses it in one
	// line naming the field, and -skip leaves it out.
	{"ext", "Extended", "Extensions", []string{".Extensions (interface {})"}},
}

// The walk-through of docs/your-type.md on real-world shapes, from a
// fresh module that does not require serbench: serbench init -codegen
// protobuf,vtprotobuf,flatbuffers -get for each type, go generate, go mod
// tidy, TestCodecs and the benchmark (each package's test binary built
// once, as go test -c, and run as go test would), serbench show. No step
// fails, the generated rows round-trip, and every derived row is in the
// table, n/a ones with a reason naming the field.
func TestRealWorldTypes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs serbench init, protoc, flatc, go generate and the benchmarks of six packages in a scratch module (-short)")
	}
	if childproc.RaceEnabled {
		t.Skip("its work is in the go commands it starts, which the race detector does not cover; go test ./... runs it")
	}
	scratchtest.NeedCodegenTools(t)
	root, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	// go test caches a passing run by the files the test binary opens:
	// stat every Go file and go.mod of the checkout so that a change to
	// serbench, which the test reaches only through go build, runs it
	// again.
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".go") || d.Name() == "go.mod" || d.Name() == "go.sum") {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// The serbench command of this checkout, built once.
	exe := filepath.Join(t.TempDir(), "serbench")
	start := time.Now()
	scratchtest.GoCmd(t, root, "build", "-o", exe, "./cmd/serbench")
	t.Logf("%-40s %v", "go build ./cmd/serbench", time.Since(start).Round(time.Second))
	run := func(stdout, stderr *bytes.Buffer, args ...string) error {
		cmd := exec.Command(exe, args...)
		cmd.Stdout, cmd.Stderr = stdout, stderr
		return cmd.Run()
	}
	dir := filepath.Join(t.TempDir(), "realworld")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "realworld"))); err != nil {
		t.Fatal(err)
	}
	// Where a user's module gets serbench from the proxy, this one gets
	// this checkout; init adds the requirement (go get) itself.
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "go.mod"), string(mod)+"\nreplace github.com/serbench/serbench => "+root+"\n")
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOWORK", "off")
	step := func(what string, start time.Time) { t.Logf("%-40s %v", what, time.Since(start).Round(time.Second)) }

	var pkgs []string
	for _, c := range realWorld {
		pkgDir := filepath.Join(dir, c.pkg)
		start := time.Now()
		var stdout, stderr bytes.Buffer
		err := run(&stdout, &stderr, "init", "-type", c.typ, "-codegen", "protobuf,vtprotobuf,flatbuffers", "-get", "-dir", pkgDir)
		step("init -type "+c.typ, start)
		if c.refused == nil {
			if err != nil {
				t.Fatalf("init -type %s: %v\n%s", c.typ, err, stderr.Bytes())
			}
		} else {
			if err == nil {
				t.Fatalf("init -type %s: no error, want the fields %q refused", c.typ, c.refused)
			}
			lines := strings.Split(stderr.String(), "\n")
			for _, f := range c.refused {
				n := 0
				for _, l := range lines {
					if strings.Contains(l, f) {
						n++
					}
				}
				if n != 1 {
					t.Errorf("init -type %s: %d lines name %s, want 1:\n%s", c.typ, n, f, stderr.Bytes())
				}
			}
			if entries, _ := os.ReadDir(pkgDir); len(entries) != 1 {
				t.Errorf("a refused init wrote files: %v", entries)
			}
			start := time.Now()
			if err := run(&stdout, &stderr, "init", "-type", c.typ, "-codegen", "protobuf,vtprotobuf,flatbuffers", "-get", "-skip", c.skip, "-dir", pkgDir); err != nil {
				t.Fatalf("init -type %s -skip %s: %v\n%s", c.typ, c.skip, err, stderr.Bytes())
			}
			step("init -type "+c.typ+" -skip "+c.skip, start)
		}
		pkgs = append(pkgs, "./"+c.pkg)
	}
	if !strings.Contains(string(scratchtest.GoCmd(t, dir, "list", "-m", "all")), "github.com/serbench/serbench ") {
		t.Fatal("init did not add the serbench requirement to go.mod")
	}
	for _, args := range [][]string{{"generate", "./..."}, {"mod", "tidy"}, append([]string{"test", "-c", "-o", filepath.Join(dir, "bin") + string(filepath.Separator)}, pkgs...)} {
		start := time.Now()
		scratchtest.GoCmd(t, dir, args...)
		step("go "+strings.Join(args[:min(2, len(args))], " "), start)
	}

	// Each field path in a reason: ".Extensions", "ObjectMeta: avro: ...".
	fieldPath := regexp.MustCompile(`\.[A-Z]\w*|\b[A-Z]\w*: avro`)
	for _, c := range realWorld {
		failed := t.Failed()
		start := time.Now()
		cmd := exec.Command(filepath.Join(dir, "bin", c.pkg+".test"), "-test.v", "-test.run", "TestCodecs",
			"-test.bench", "Codecs", "-test.count", "3", "-test.benchtime", "1x")
		cmd.Dir = filepath.Join(dir, c.pkg)
		out, err := cmd.CombinedOutput()
		step("test and benchmark "+c.pkg, start)
		if err != nil || !bytes.Contains(out, []byte("--- PASS: TestCodecs")) {
			t.Errorf("%s: go test -v -run TestCodecs -bench Codecs: %v\n%s", c.pkg, err, out)
			continue
		}
		file := filepath.Join(dir, c.pkg+".txt")
		writeFile(t, file, string(out))
		var stdout, stderr bytes.Buffer
		if err := run(&stdout, &stderr, "show", file); err != nil {
			t.Errorf("%s: serbench show: %v\n%s", c.pkg, err, stderr.Bytes())
			continue
		}
		table := stdout.String()
		ids := []string{"protobuf/derived", "hyperpb/derived", "avro/derived"}
		generated := []string{"protobuf", "vtprotobuf", "flatbuffers"}
		for _, id := range generated {
			if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(id) + ` +marshal +\d`).MatchString(table) {
				t.Errorf("%s: show has no timed %s row:\n%s", c.pkg, id, table)
			}
		}
		for _, id := range ids {
			// A row n/a points at its note: "avro/derived - n/a [6]",
			// then "[6] marshal: Opened: avro: ...".
			timed := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(id) + ` +marshal +\d`).MatchString(table)
			na := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(id) + ` .*n/a +(\[\d+\])$`).FindStringSubmatch(table)
			switch {
			case timed:
			case na == nil:
				t.Errorf("%s: show has no %s row:\n%s", c.pkg, id, table)
			default:
				note := regexp.MustCompile(`(?m)^ *` + regexp.QuoteMeta(na[1]) + ` .*$`).FindString(table)
				if !fieldPath.MatchString(note) {
					t.Errorf("%s: %s is n/a without a note naming the field (%q):\n%s", c.pkg, id, note, table)
				}
			}
		}
		if t.Failed() && !failed {
			t.Logf("%s: serbench show:\n%s", c.pkg, table)
		}
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
