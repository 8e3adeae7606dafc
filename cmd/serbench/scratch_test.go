package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/serbench/serbench/cmd/serbench/internal/scratchtest"
)

// scratchModule makes a module in a temporary folder that requires
// github.com/serbench/serbench from this repository (a replace directive),
// with order.go holding the six-field Order of docs/your-type.md. It skips the
// test when the go command is missing.
func scratchModule(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command:", err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "go.mod"), "module example.com/order\n\ngo 1.26.0\n\nrequire github.com/serbench/serbench v0.0.0\n\nreplace github.com/serbench/serbench => "+root+"\n")
	writeText(t, filepath.Join(dir, "order.go"), `package order

import "time"

type Order struct {
	ID       string    `+"`json:\"id\"`"+`
	Created  time.Time `+"`json:\"created\"`"+`
	Customer string    `+"`json:\"customer\"`"+`
	Items    int       `+"`json:\"items\"`"+`
	Paid     bool      `+"`json:\"paid\"`"+`
	Total    float64   `+"`json:\"total\"`"+`
}
`)
	return dir
}

// goCmd is scratchtest.GoCmd.
func goCmd(t *testing.T, dir string, args ...string) []byte {
	t.Helper()
	return scratchtest.GoCmd(t, dir, args...)
}

// The workflow of docs/your-type.md, end to end: a user's module
// benchmarks its own six-field struct with the library, benchstat's reader
// parses the output, serbench show renders it as a table and as HTML, and
// serbench compare compares two runs.
func TestScratchModuleBenchmark(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go test in a scratch module (about 30 s)")
	}
	dir := scratchModule(t)
	writeText(t, filepath.Join(dir, "order_test.go"), `package order

import (
	"testing"
	"time"

	"github.com/serbench/serbench"
)

var sample = &Order{ID: "ord-1842", Created: time.Date(2026, 11, 23, 9, 30, 0, 0, time.FixedZone("CET", 3600)),
	Customer: "Ada Lovelace", Items: 3, Paid: true, Total: 129.95}

var opts = serbench.Options{Codecs: []string{"encoding/json", "json-v2", "msgpack", "cbor", "protobuf"}}

func BenchmarkCodecs(b *testing.B) { serbench.Benchmark(b, sample, opts) }

// Lossy goes through JSON as float64, not int64.
type Lossy struct{ N any }

func BenchmarkLossy(b *testing.B) {
	serbench.Benchmark(b, &Lossy{N: int64(7)}, serbench.Options{Codecs: []string{"encoding/json", "gob"}})
}

func TestCodecs(t *testing.T) { serbench.Check(t, sample, opts) }
`)
	// The first run with -v, as a user runs Check too: the output then
	// also holds the test's log and the notes of skipped codecs. The
	// second run is the plain benchmark run a user compares against.
	var files []string
	for i, name := range []string{"old.txt", "new.txt"} {
		args := []string{"test", "-run", "^$", "-bench", ".", "-benchtime", "2000x", "-count", "6"}
		if i == 0 {
			args = []string{"test", "-v", "-run", "TestCodecs", "-bench", ".", "-benchtime", "2000x", "-count", "6"}
		}
		out := goCmd(t, dir, args...)
		path := filepath.Join(dir, name)
		writeText(t, path, string(out))
		files = append(files, path)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}

	// benchstat's reader: every line parses, each cell has 6 samples with
	// a codec= and op= key, the size unit, and lossy=true on the lossy codec.
	rd := benchfmt.NewReader(bytes.NewReader(data), "old.txt")
	samples := map[string]int{}
	units := map[string]bool{}
	for rd.Scan() {
		switch r := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Errorf("benchfmt: %v", r)
		case *benchfmt.Result:
			name := r.Name.String()
			if !strings.Contains(name, "/codec=") || !strings.Contains(name, "/op=") {
				t.Errorf("name %q lacks codec= or op=", name)
			}
			samples[name]++
			for _, v := range r.Values {
				units[v.Unit] = true
			}
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Codecs/codec=encoding.json/op=marshal-2", "Codecs/codec=cbor/op=unmarshal-2", "Lossy/codec=encoding.json/lossy=true/op=marshal-2", "Lossy/codec=gob/op=marshal-2"} {
		// The GOMAXPROCS suffix depends on the machine.
		n := 0
		for got, c := range samples {
			// (none with GOMAXPROCS=1, as the testing package prints it).
			if regexp.MustCompile(`-\d+$`).ReplaceAllString(got, "") == strings.TrimSuffix(name, "-2") {
				n = c
			}
		}
		if n != 6 {
			t.Errorf("%s: %d samples, want 6 (have %v)", name, n, samples)
		}
	}
	for _, u := range []string{"sec/op", "B/msg", "B/op", "allocs/op", "B/s"} {
		if !units[u] {
			t.Errorf("no %s values (units %v)", u, units)
		}
	}

	// serbench show: the table, with the lossy codec marked, and HTML.
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"show", files[0]}); err != nil {
		t.Fatalf("show: %v (stderr %s)", err, stderr.Bytes())
	}
	table := stdout.String()
	for _, want := range []string{"Codecs\n", "Lossy\n", "encoding/json  marshal", "json-v2", "msgpack", "cbor", "base", "✗ [1]", "want 7 of type int64, got 7 of type float64"} {
		if !strings.Contains(table, want) {
			t.Errorf("show table lacks %q:\n%s", want, table)
		}
	}
	if !regexp.MustCompile(`protobuf +- +n/a`).MatchString(table) || !strings.Contains(table, "no message for *order.Order") {
		t.Errorf("show does not list protobuf as n/a with its reason (go test -v logs it):\n%s", table)
	}
	stdout.Reset()
	if err := run(context.Background(), &stdout, &stderr, []string{"show", "-format", "html", files[0]}); err != nil {
		t.Fatalf("show -format html: %v", err)
	}
	if h := stdout.String(); !strings.HasPrefix(h, "<!DOCTYPE html>") || !strings.Contains(h, "msgpack") {
		t.Errorf("show -format html:\n%.300s", h)
	}

	// serbench compare: every timed cell of one run against the other.
	stdout.Reset()
	if err := run(context.Background(), &stdout, &stderr, []string{"compare", files[0], files[1]}); err != nil {
		t.Fatalf("compare: %v (stderr %s)", err, stderr.Bytes())
	}
	for _, want := range []string{"encoding/json", "cbor", "unmarshal"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("compare lacks %q:\n%s", want, stdout.Bytes())
		}
	}

	// Check's table is in the -v run's output.
	for _, want := range []string{"encoding/json  kept", "cbor           kept", "protobuf       n/a", "--- PASS: TestCodecs"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("TestCodecs output lacks %q:\n%s", want, data)
		}
	}
}

// serbench init on a scratch module, then the steps it prints: go get
// -tool (pins msgp and easyjson), go generate, go test. msgp and easyjson
// code generated onto the user's type round-trip it.
func TestScratchModuleInit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go get, go generate and go test in a scratch module")
	}
	dir := scratchModule(t)
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), &stdout, &stderr, []string{"init", "-type", "Order", "-codegen", "msgp,easyjson", "-dir", dir, "-get"})
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && strings.Contains(err.Error(), "dial tcp") {
			t.Skip("module proxy unreachable:", err)
		}
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"github.com/tinylib/msgp v1.6.5", "github.com/mailru/easyjson v0.9.2", "tool (", "github.com/mailru/easyjson/easyjson"} {
		if !bytes.Contains(gomod, []byte(want)) {
			t.Errorf("go.mod lacks %q:\n%s", want, gomod)
		}
	}
	goCmd(t, dir, "generate")
	for _, f := range []string{"order_msgp.go", "order_easyjson.go"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("go generate did not write %s: %v", f, err)
		}
	}
	out := goCmd(t, dir, "test", "-run", "TestCodecs", "-v", "-count", "1")
	// The table's columns are as wide as the longest codec ID: match a
	// row by its codec and result, whatever the spaces between.
	for _, want := range []string{`\smsgp\s+kept\s`, `\seasyjson\s+kept\s`, `\sencoding/json\s+kept\s`, `--- PASS: TestCodecs`} {
		if !regexp.MustCompile(want).Match(out) {
			t.Errorf("TestCodecs output lacks %s:\n%s", want, out)
		}
	}
}
