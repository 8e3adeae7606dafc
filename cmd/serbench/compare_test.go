package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/results"
)

// compareInputs are two small runs: sonic/default got faster between them,
// and the new one ran on Go 1.27's encoding/json engine.
func compareInputs() (oldDoc, newDoc *results.Run) {
	mk := func(f float64) *results.Run {
		s := func(c float64) []float64 { return []float64{c * 0.98, c * 0.99, c, c, c * 1.01, c * 1.02} }
		goVersion, engine := "go1.26.8", env.JSONEngineLegacy
		if f != 1 {
			goVersion, engine = "go1.27.4", env.JSONEngineV2
		}
		return &results.Run{
			Env: env.Env{Go: goVersion, JSONEngine: engine, GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU", NumCPU: 2, GOMAXPROCS: 2,
				Started: time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC), Modules: map[string]string{"github.com/bytedance/sonic": "v1.15.5"}},
			Count: 6, Baseline: "encoding/json",
			Results: []results.Row{
				{Codec: "encoding/json", Scenario: "sse-event", Op: "marshal", NsPerOp: 1286, BytesPerOp: 192, AllocsPerOp: 2, SizeBytes: 184, Derived: results.Derived{Speedup: 1}, OK: true, Samples: s(1286), Iterations: 100},
				{Codec: "sonic/default", Scenario: "sse-event", Op: "marshal", NsPerOp: 537 * f, BytesPerOp: 160, AllocsPerOp: 2, SizeBytes: 184, Derived: results.Derived{Speedup: 1286 / (537 * f)}, OK: true, Samples: s(537 * f), Iterations: 100},
			},
		}
	}
	return mk(1), mk(0.75)
}

func TestCompareCommand(t *testing.T) {
	oldDoc, newDoc := compareInputs()
	oldPath, newPath := filepath.Join("testdata", "compare-old.json"), filepath.Join("testdata", "compare-new.txt")
	if golden.Update() {
		for path, w := range map[string]func() error{
			oldPath: func() error { return writeFile(oldPath, "json", oldDoc) },
			newPath: func() error { return writeFile(newPath, "benchfmt", newDoc) },
		} {
			if err := w(); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
	}
	for _, format := range report.CompareFormats {
		t.Run(format, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if err := run(context.Background(), &stdout, &stderr, []string{"compare", "-format", format, oldPath, newPath}); err != nil {
				t.Fatal(err)
			}
			// The runs differ in Go version: without -max-regression that
			// is a warning.
			want := "serbench: warning: compare: " + oldPath + " and " + newPath + " differ in env.go (go1.26.8 vs go1.27.4): " +
				"runs from different machines or toolchains are not comparable; compared anyway\n"
			if stderr.String() != want {
				t.Errorf("stderr %q, want %q", stderr.Bytes(), want)
			}
			golden.Check(t, filepath.Join("testdata", "compare."+format), stdout.Bytes())
		})
	}
	t.Run("-o", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "cmp.txt")
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), &stdout, &stderr, []string{"compare", "-o", out, oldPath, newPath}); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "sonic/default") || stdout.Len() > 0 {
			t.Errorf("file %q (%v), stdout %q", b, err, stdout.Bytes())
		}
	})
}

func writeFile(path, format string, doc *results.Run) error {
	var buf bytes.Buffer
	if err := report.Write(&buf, format, doc, nil); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func TestCompareErrors(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.json")
	os.WriteFile(other, []byte(`{"schema": "serbench/v2", "results": []}`), 0o644)
	junk := filepath.Join(dir, "junk.txt")
	os.WriteFile(junk, []byte("not results\n"), 0o644)
	good := filepath.Join("testdata", "compare-old.json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{good}, "want at least two files"},
		{[]string{"-format", "yaml", good, good}, `unknown format "yaml"`},
		{[]string{filepath.Join(dir, "missing.json"), good}, "missing.json"},
		{[]string{good, other}, `other.json: schema "serbench/v2"`},
		{[]string{junk, good}, "junk.txt: not a serbench results file"},
		{[]string{"-alpha", "2", good, good}, "invalid -alpha 2 (range is (0, 1))"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			err := run(context.Background(), &bytes.Buffer{}, &bytes.Buffer{}, append([]string{"compare"}, tc.args...))
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want one line containing %q", err, tc.want)
			}
		})
	}
}

// With three files every later one is compared with the first, and the
// JSON document conforms to its schema.
func TestCompareThreeFiles(t *testing.T) {
	oldPath, newPath := filepath.Join("testdata", "compare-old.json"), filepath.Join("testdata", "compare-new.txt")
	var stdout bytes.Buffer
	if err := run(context.Background(), &stdout, io.Discard, []string{"compare", "-format", "json", oldPath, newPath, oldPath}); err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(stdout.Bytes()); err != nil {
		t.Errorf("output does not conform to docs/schema: %v", err)
	}
	var doc report.ComparisonDocument
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Comparisons) != 2 || doc.Comparisons[0].NewName != newPath || doc.Comparisons[1].NewName != oldPath {
		t.Fatalf("comparisons: %+v", doc.Comparisons)
	}
	// The run compared with itself: every geomean change is 0.
	for _, g := range doc.Comparisons[1].Geomean {
		if g.Change != 0 || g.N == 0 {
			t.Errorf("self-comparison geomean %+v", g)
		}
	}
	if g := doc.Comparisons[0].Geomean; len(g) != 1 || g[0].Change >= 0 {
		t.Errorf("geomean of a faster run: %+v", g)
	}
}
