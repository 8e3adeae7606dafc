package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/results"
)

// show prints a saved run exactly as the run's own writer would.
func TestShowRun(t *testing.T) {
	doc, _ := compareInputs()
	doc = results.Analyze(doc) // as serbench run writes it
	path := filepath.Join("testdata", "compare-old.json")
	for _, format := range []string{"table", "markdown", "csv"} {
		var want, stdout, stderr bytes.Buffer
		if err := report.Write(&want, format, doc, nil); err != nil {
			t.Fatal(err)
		}
		if err := run(context.Background(), &stdout, &stderr, []string{"show", "-format", format, path}); err != nil {
			t.Fatalf("%s: %v (stderr %s)", format, err, stderr.Bytes())
		}
		if stdout.String() != want.String() {
			t.Errorf("%s: show printed\n%s\nwant\n%s", format, stdout.Bytes(), want.Bytes())
		}
	}
}

// A serbench load JSON file is shown as the load table.
func TestShowLoad(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"show", filepath.Join("..", "..", "load", "testdata", "report.json")}); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "load", "testdata", "report.table"))
	if err != nil {
		t.Fatal(err)
	}
	if stdout.String() != string(want) {
		t.Errorf("show printed\n%s\nwant\n%s", stdout.Bytes(), want)
	}
	err = run(context.Background(), &stdout, &stderr, []string{"show", "-format", "html", filepath.Join("..", "..", "load", "testdata", "report.json")})
	if err == nil || !strings.Contains(err.Error(), "table or json") {
		t.Errorf("html of a load file: err = %v", err)
	}
}

func TestShowErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, []byte(`{"schema":"serbench/v1"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"show"}, "want one file"},
		{[]string{"show", filepath.Join(dir, "missing.json")}, "missing.json"},
		{[]string{"show", empty}, "no results"},
		{[]string{"show", "-format", "yaml", empty}, `unknown format "yaml"`},
		{[]string{"show", empty, "-o", "x.html"}, "flags go first"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want it to mention %q", tc.args, err, tc.want)
		}
	}
}

// What go test -bench -count 3 printed for an ordering of the samples
// whose U-test p-value rounds to 1.0000000000000002
// (testdata/gotest-count3.txt, written by report's goTestOutput): show and
// compare read it.
func TestShowOddCount(t *testing.T) {
	path := filepath.Join("testdata", "gotest-count3.txt")
	for _, args := range [][]string{
		{"show", path},
		{"show", "-format", "markdown", path},
		{"compare", path, path},
	} {
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), &stdout, &stderr, args); err != nil {
			t.Errorf("%v: %v (stderr %s)", args, err, stderr.Bytes())
			continue
		}
		if !strings.Contains(stdout.String(), "cbor") {
			t.Errorf("%v: no cbor row in\n%s", args, stdout.Bytes())
		}
	}
}

// Warnings quote the file (a line that is not a serbench cell): show and
// compare print them on standard error escaped, one line each.
func TestShowWarningsEscaped(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "gotest-count3.txt"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "evil.txt")
	evil := "BenchmarkOther\x1b]52;c;cm0=\x07\x1b[2J/x=1-2   \t 100\t 5 ns/op\n"
	if err := os.WriteFile(path, append(data, evil...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"show", path}, {"compare", path, path}} {
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), &stdout, &stderr, args); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if !strings.Contains(stderr.String(), "serbench: warning: ") || strings.ContainsAny(stderr.String()+stdout.String(), "\x1b\x07") {
			t.Errorf("%v: stderr %q", args, stderr.String())
		}
	}
}
