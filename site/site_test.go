package site_test

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/archive"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/dropin"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/site"
	"github.com/serbench/serbench/stats"
)

// testCodecs are the codecs of testRuns, one per property the page
// filters on.
var testCodecs = []results.CodecInfo{
	{Info: codec.Info{ID: "plain", Module: "example.com/plain", Format: "JSON", Kind: codec.Reflect, LastRelease: "2026-01-01"},
		DropIn: &dropin.Verdict{Of: "encoding/json", Class: dropin.Yes, Compared: 37}},
	{Info: codec.Info{ID: "fast", Module: "example.com/fast", Format: "JSON", Kind: codec.JIT, Unsafe: true, AliasesInput: new(bool), API: codec.APIAny, LastRelease: "2026-01-01"},
		DropIn: &dropin.Verdict{Of: "encoding/json", Class: dropin.SameBytes, Compared: 37, Probes: []dropin.ProbeOutcome{{Probe: "float-negzero", Ref: "kept", Got: "changed (.F: -0 → 0)"}}}},
	{Info: codec.Info{ID: "reuser", Module: "example.com/reuser", Format: "JSON", Kind: codec.Manual, ReusesOutput: true, LastRelease: "2026-01-01"}},
	{Info: codec.Info{ID: "lazy", Module: "example.com/lazy", Format: "FlatBuffers", Kind: codec.Codegen, ZeroCopy: true, LastRelease: "2026-01-01"}},
	{Info: codec.Info{ID: "mp", Module: "example.com/mp", Format: "MessagePack", Kind: codec.Codegen, LastRelease: "2026-01-01"}},
	{Info: codec.Info{ID: "broken", Module: "example.com/broken", Format: "MessagePack", Kind: codec.Reflect, LastRelease: "2020-01-01", Status: "no release since 2020"}},
}

// testRuns are three archived runs a day apart (the third under emulation): in the second, codec mp
// is 20% slower and at a new library version; the third re-runs the
// second (new noise). Codec broken fails its round trip everywhere.
func testRuns(t testing.TB) []*archive.Run {
	return testRunsOf(t, []float64{1, 1.2, 1.2}, 1)
}

// testRunsOf makes one run per element of slows, a day apart (the third
// under emulation), in which codec mp is slows[i] times slower (and at a
// new library version after the first run). With processes > 1 each run
// is split over that many processes (bench.Result.Processes), each taking
// ten samples a cell with a small offset of its own. Codec broken fails
// its round trip everywhere.
func testRunsOf(t testing.TB, slows []float64, processes int) []*archive.Run {
	emulated := []string{"", "", "test: under qemu-user"}
	var runs []*archive.Run
	for i, slow := range slows {
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		doc := &results.Run{Env: env.Env{Go: "go1.26.8", GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU", Emulated: emulated[i%len(emulated)],
			Started: time.Date(2026, 11, 20+i, 8, 0, 0, 0, time.UTC), Modules: map[string]string{}}}
		for _, ci := range testCodecs {
			ci.Version = "v1.0.0"
			if ci.ID == "mp" && i > 0 {
				ci.Version = "v1.1.0"
			}
			doc.Codecs = append(doc.Codecs, ci)
			for _, sc := range []string{"sse-event", "user-event"} {
				for _, op := range []string{results.OpMarshal, results.OpUnmarshal} {
					base := 100 * float64(len(ci.ID))
					if ci.ID == "mp" {
						base *= slow
					}
					var samples []float64
					var procs []results.ProcessFigures
					for range processes {
						offset := 1.0
						if processes > 1 {
							offset = math.Exp(0.01 * rng.NormFloat64())
						}
						own := make([]float64, 10)
						for k := range own {
							own[k] = base * offset * math.Exp(0.02*rng.NormFloat64())
						}
						samples = append(samples, own...)
						med, _, _ := stats.Summarize(own)
						procs = append(procs, results.ProcessFigures{NsPerOp: med, BytesPerOp: 64, AllocsPerOp: 1, Samples: len(own)})
					}
					med, lo, hi := stats.Summarize(samples)
					res := results.Row{Codec: ci.ID, Scenario: sc, Op: op, NsPerOp: med, NsPerOpLo: lo, NsPerOpHi: hi,
						BytesPerOp: 64, AllocsPerOp: 1, SizeBytes: 50, OK: ci.ID != "broken", Samples: samples, Iterations: 100}
					if processes > 1 {
						res.Processes = procs
					}
					doc.Results = append(doc.Results, res)
				}
			}
		}
		var buf bytes.Buffer
		if err := results.WriteJSON(&buf, doc); err != nil {
			t.Fatal(err)
		}
		r, err := archive.Parse(buf.Bytes(), "run"+string(rune('0'+i)))
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	return runs
}

func TestBuild(t *testing.T) {
	runs := testRuns(t)
	d, err := site.Build(context.Background(), runs)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Runs) != 3 || len(d.Codecs) != len(testCodecs) || len(d.Cells) != 3*len(testCodecs)*4 || len(d.Diffs) != 2 {
		t.Fatalf("%d runs, %d codecs, %d cells, %d diffs", len(d.Runs), len(d.Codecs), len(d.Cells), len(d.Diffs))
	}
	for _, c := range d.Codecs {
		if c.ID == "broken" && c.Maintained || c.ID == "plain" && !c.Maintained || c.ID == "lazy" && !(c.Codegen && c.ZeroCopy) ||
			c.ID == "plain" && (c.DropIn != "drop-in" || c.DropInOf != "encoding/json") || c.ID == "fast" && (c.DropIn != "same-bytes" || len(c.DropInProbes) != 1) {
			t.Errorf("codec %+v", c)
		}
	}
	// The diffs of neighbouring runs are serbench compare's (by speed-up),
	// with the verdicts of -max-regression 5% both ways.
	want, err := compare.CompareRuns([]*results.Run{runs[0].Doc}, []*results.Run{runs[1].Doc}, compare.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	back, err := compare.CompareRuns([]*results.Run{runs[1].Doc}, []*results.Run{runs[0].Doc}, compare.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := compare.ApplyGate([]*compare.Comparison{want, back}, site.DiffThreshold); err != nil {
		t.Fatal(err)
	}
	reverse := map[compare.Cell]string{}
	for _, r := range back.Rows {
		reverse[r.Cell] = string(r.Verdict)
	}
	verdicts := 0
	got := d.Diffs[0]
	if len(got.Rows) != len(want.Rows) || got.Correction != compare.Correction || got.Basis != want.Basis || !strings.Contains(got.Basis, "drift-proof") {
		t.Fatalf("diff 0-1: %d rows, want %d", len(got.Rows), len(want.Rows))
	}
	for i, r := range want.Rows {
		if g := got.Rows[i]; g.Delta != r.Delta || g.Basis != r.Basis || math.Abs(g.Q-r.Q) > 5e-3*r.Q || d.Codecs[g.Codec].ID != r.Codec {
			t.Errorf("row %d: %+v, want %s %s q=%v", i, g, r.Codec, r.Delta, r.Q)
		}
		if g := got.Rows[i]; g.Verdict != string(r.Verdict) || g.Reverse != reverse[r.Cell] {
			t.Errorf("row %d (%s): verdicts %q, reversed %q; want compare's %q, %q", i, r.Codec, g.Verdict, g.Reverse, r.Verdict, reverse[r.Cell])
		}
		if r.Verdict != "" {
			verdicts++
		}
	}
	if verdicts == 0 || got.Threshold != site.DiffThreshold {
		t.Errorf("no row has a verdict (threshold %v)", got.Threshold)
	}
	if d.Runs[2].Emulated == "" || d.Runs[0].Emulated != "" {
		t.Errorf("emulated: %q %q", d.Runs[0].Emulated, d.Runs[2].Emulated)
	}
	if d.Runs[1].Versions["mp"] != "v1.1.0" || d.Runs[0].Versions["mp"] != "v1.0.0" {
		t.Errorf("versions %v %v", d.Runs[0].Versions, d.Runs[1].Versions)
	}
	if _, err := site.Build(context.Background(), nil); err == nil {
		t.Error("no runs: no error")
	}
}

func TestWriteReplacesOnlyASite(t *testing.T) {
	d, err := site.Build(context.Background(), testRuns(t))
	if err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "site")
	if err := site.Write(dir, d); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "stale.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := site.Write(dir, d); err != nil {
		t.Fatalf("replace a site: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "stale.txt")); err == nil {
		t.Error("the previous site's files survived: not replaced whole")
	}
	for _, f := range []string{"index.html", "site.js", "data.js", site.Marker} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	user := filepath.Join(parent, "mine")
	if err := os.MkdirAll(user, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(user, "notes.txt"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := site.Write(user, d); err == nil || !strings.Contains(err.Error(), "not a serbench site") {
		t.Errorf("user folder: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(user, "notes.txt")); err != nil || string(b) != "keep" {
		t.Error("user file touched")
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 2 {
		t.Errorf("%d entries in the parent, want 2 (no temporary folder left)", len(entries))
	}
}

// TestWriteNeverMissing replaces a site over and over while another
// goroutine reads it: on Linux (one exchanging rename) index.html and
// data.js are always there.
func TestWriteNeverMissing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux exchanges two folders in one rename")
	}
	d, err := site.Build(context.Background(), testRuns(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	if err := site.Write(dir, d); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() {
		var err error
		for range 50 {
			if err = site.Write(dir, d); err != nil {
				break
			}
		}
		done <- err
	}()
	missing, reads := 0, 0
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			running = false
		default:
		}
		for _, f := range []string{"index.html", "data.js"} {
			reads++
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				missing++
			}
		}
	}
	if missing > 0 {
		t.Errorf("%d of %d reads found the site missing while it was replaced", missing, reads)
	}
}
