package archive_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/archive"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
)

func runJSON(t *testing.T, started time.Time, cpu string) []byte {
	t.Helper()
	return runJSONFor(t, started, cpu)
}

// runJSONFor is runJSON for tests and fuzz targets.
func runJSONFor(t testing.TB, started time.Time, cpu string) []byte {
	t.Helper()
	doc := &results.Run{
		Env: env.Env{Go: "go1.26.8", GOOS: "linux", GOARCH: "arm64", CPU: cpu, Started: started, Serbench: "v0.3.0"},
		Results: []results.Row{{Codec: "encoding/json", Scenario: "sse-event", Op: "marshal", NsPerOp: 100, OK: true,
			Samples: []float64{99, 100, 101}, Iterations: 10}},
	}
	var buf bytes.Buffer
	if err := results.WriteJSON(&buf, doc); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var t0 = time.Date(2026, 11, 24, 8, 30, 5, 0, time.FixedZone("CET", 3600))

func TestKey(t *testing.T) {
	r, err := archive.Parse(runJSON(t, t0, "Neoverse-N1 (r3p1) @ 3.0GHz"), "a.json")
	if err != nil {
		t.Fatal(err)
	}
	if want := "2026-11-24T073005Z_go1.26.8_linux-arm64_neoverse-n1-r3p1-3.0ghz_v0.3.0"; r.Key != want {
		t.Errorf("key %q, want %q", r.Key, want)
	}
	// The encoding/json engine, when the env records it, joins the Go part.
	data := bytes.Replace(runJSON(t, t0, ""), []byte(`"go": "go1.26.8",`), []byte(`"go": "go1.26.8", "json_engine": "v2",`), 1)
	r, err = archive.Parse(data, "b.json")
	if err != nil {
		t.Fatal(err)
	}
	if want := "2026-11-24T073005Z_go1.26.8-v2_linux-arm64_unknown_v0.3.0"; r.Key != want || r.Engine != "v2" {
		t.Errorf("key %q engine %q, want %q", r.Key, r.Engine, want)
	}
}

func TestParseRejects(t *testing.T) {
	good := string(runJSON(t, t0, "x"))
	for _, tc := range []struct{ name, data, want string }{
		{"bench.txt", "BenchmarkCodec/codec=x/scenario=y/op=marshal 1 100 ns/op\n", "not a serbench run"},
		{"empty.json", "", "not a serbench run"},
		{"v2.json", strings.Replace(good, `"serbench/v1"`, `"serbench/v2"`, 1), `schema "serbench/v2"`},
		{"load.json", `{"schema": "serbench-load/v1"}`, "serbench load"},
		{"other.json", `{"name": "x"}`, `without a "schema"`},
		{"nostart.json", strings.Replace(good, `"started": "2026-11-24T08:30:05+01:00"`, `"started": "0001-01-01T00:00:00Z"`, 1), "start time"},
	} {
		_, err := archive.Parse([]byte(tc.data), tc.name)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s: err %v, want one naming the file and %q", tc.name, err, tc.want)
		}
	}
}

// CheckDir refuses a file and takes a folder or a path not yet made.
func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "run.json")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := archive.CheckDir(file); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("a file: err = %v", err)
	}
	for _, ok := range []string{dir, filepath.Join(dir, "new")} {
		if err := archive.CheckDir(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// AddFiles reads each file and adds them all, or none when one cannot be
// read.
func TestAddFiles(t *testing.T) {
	src, dir := t.TempDir(), filepath.Join(t.TempDir(), "results")
	a, b := filepath.Join(src, "a.json"), filepath.Join(src, "b.json")
	if err := errors.Join(os.WriteFile(a, runJSON(t, t0, "cpu"), 0o644), os.WriteFile(b, runJSON(t, t0.Add(time.Hour), "cpu"), 0o644)); err != nil {
		t.Fatal(err)
	}
	if _, err := archive.AddFiles(context.Background(), dir, []string{a, filepath.Join(src, "missing.json")}); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: err = %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed add left %d files", len(entries))
	}
	written, err := archive.AddFiles(context.Background(), dir, []string{a, b})
	if err != nil || len(written) != 2 {
		t.Errorf("AddFiles = %v, %v, want two files", written, err)
	}
}

func TestAddAllOrNone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "results")
	parse := func(started time.Time, name string) *archive.Run {
		r, err := archive.Parse(runJSON(t, started, "cpu"), name)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := parse(t0, "a.json"), parse(t0.Add(time.Hour), "b.json")
	written, err := archive.Add(context.Background(), dir, []*archive.Run{a})
	if err != nil || len(written) != 1 {
		t.Fatalf("add a: %v %v", written, err)
	}
	got, err := os.ReadFile(written[0])
	if err != nil || !bytes.Equal(got, runJSON(t, t0, "cpu")) {
		t.Errorf("archived file is not the run byte for byte (%v)", err)
	}
	// b is new but a is a duplicate: nothing is added.
	if _, err := archive.Add(context.Background(), dir, []*archive.Run{b, parse(t0, "a-again.json")}); !errors.Is(err, archive.ErrDuplicate) || !strings.Contains(err.Error(), "a-again.json") {
		t.Errorf("duplicate: %v", err)
	}
	if _, err := archive.Add(context.Background(), dir, []*archive.Run{b, parse(t0.Add(time.Hour), "b2.json")}); !errors.Is(err, archive.ErrDuplicate) || !strings.Contains(err.Error(), "b2.json") {
		t.Errorf("duplicate within the batch: %v", err)
	}
	runs, bad, err := archive.Load(context.Background(), dir)
	if err != nil || len(runs) != 1 || len(bad) != 0 {
		t.Fatalf("after refused adds: %d runs, %v %v", len(runs), bad, err)
	}
	if _, err := archive.Add(context.Background(), dir, []*archive.Run{b}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d entries, want 2 (no temporary file left)", len(entries))
	}
	runs, _, err = archive.Load(context.Background(), dir)
	if err != nil || len(runs) != 2 || runs[0].Key != a.Key || runs[1].Key != b.Key {
		t.Fatalf("load: %v", err)
	}
	// A file whose name is not its key is not the archive's.
	if err := os.WriteFile(filepath.Join(dir, "renamed.json"), runJSON(t, t0.Add(2*time.Hour), "cpu"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs, bad, err = archive.Load(context.Background(), dir)
	if err != nil || len(runs) != 2 || len(bad) != 1 || !strings.Contains(bad[0].Error(), "renamed.json") {
		t.Errorf("misnamed file: %d runs, skipped %v, %v", len(runs), bad, err)
	}
}
