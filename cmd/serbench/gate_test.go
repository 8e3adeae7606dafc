package main

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/report"
)

// gateRun is a synthetic run of 10 codecs × 3 scenarios × 2 ops: each
// cell's 10 samples are its base time (slowed by the factor slow) times
// log-normal noise of 3%, drawn from a generator seeded with seed.
func gateRun(seed uint64, slow float64) *report.Document {
	rng := rand.New(rand.NewPCG(seed, 25))
	doc := &report.Document{Env: bench.Env{Go: "go1.26.8", GOOS: "linux", GOARCH: "amd64",
		Started: time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)}, Count: 10}
	for c := range 10 {
		for _, sc := range []string{"sse-event", "order", "telemetry"} {
			for _, op := range []string{bench.OpMarshal, bench.OpUnmarshal} {
				base := 300 * float64(c+1) * slow
				samples := make([]float64, 10)
				for i := range samples {
					samples[i] = base * math.Exp(0.03*rng.NormFloat64())
				}
				med, lo, hi := bench.Summarize(samples)
				doc.Results = append(doc.Results, bench.Result{Codec: "codec" + string(rune('a'+c)), Scenario: sc, Op: op,
					NsPerOp: med, NsPerOpLo: lo, NsPerOpHi: hi, BytesPerOp: 64, AllocsPerOp: 1, SizeBytes: 100,
					OK: true, Samples: samples, Iterations: 1000})
			}
		}
	}
	return doc
}

// TestCompareGate checks -max-regression: a run slowed by 20% fails with
// one line per cell, a re-run of the same code (new noise) passes.
func TestCompareGate(t *testing.T) {
	dir := t.TempDir()
	files := map[string]*report.Document{"old.json": gateRun(1, 1), "slow.json": gateRun(2, 1.2), "rerun.json": gateRun(3, 1)}
	for name, doc := range files {
		if err := writeFile(filepath.Join(dir, name), "json", doc); err != nil {
			t.Fatal(err)
		}
	}
	gate := func(newFile string) (string, error) {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, []string{"compare", "-max-regression", "5%",
			filepath.Join(dir, "old.json"), filepath.Join(dir, newFile)})
		return stderr.String(), err
	}
	stderr, err := gate("slow.json")
	if err == nil || exitCode(err) != 1 {
		t.Fatalf("20%% slower: err %v, want exit status 1", err)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != 60 {
		t.Errorf("20%% slower: %d lines, want 60 (one per cell):\n%s", len(lines), stderr)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "regression: ") || !strings.Contains(l, "ns/op +") {
			t.Errorf("line %q", l)
		}
	}
	if stderr, err := gate("rerun.json"); err != nil || stderr != "" {
		t.Errorf("re-run: err %v, stderr %q; want a pass", err, stderr)
	}
	// Without the correction some of the 60 unchanged cells could pass
	// p <= 0.05; check that the gate's flags come from the corrected q.
	c, err := report.Compare(files["old.json"], files["rerun.json"], report.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Rows {
		if r.Significant != (r.Q <= c.Alpha) || r.Q < r.P {
			t.Errorf("%v: p %v q %v significant %v", r.Cell, r.P, r.Q, r.Significant)
		}
	}
}

func TestCompareBadInput(t *testing.T) {
	dir := t.TempDir()
	a, b := gateRun(1, 1), gateRun(2, 1)
	for i := range b.Results {
		b.Results[i].Codec = "other"
	}
	for name, doc := range map[string]*report.Document{"a.json": a, "b.json": b} {
		if err := writeFile(filepath.Join(dir, name), "json", doc); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"compare", filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")}, "share no cell", 1},
		{[]string{"compare", "-max-regression", "five", filepath.Join(dir, "a.json"), filepath.Join(dir, "a.json")}, "invalid threshold", 2},
		{[]string{"compare", "-max-regression", "-5%", filepath.Join(dir, "a.json"), filepath.Join(dir, "a.json")}, "invalid threshold", 2},
	} {
		err := run(context.Background(), &bytes.Buffer{}, &bytes.Buffer{}, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err) != tc.code {
			t.Errorf("%v: err %v (exit %d), want %q exit %d", tc.args, err, exitCode(err), tc.want, tc.code)
		}
	}
}
