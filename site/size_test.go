package site_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/serbench/serbench/archive"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/site"
	"github.com/serbench/serbench/stats"
)

var sizeRuns = flag.Int("site.runs", 100, "TestDataSize: the number of synthetic runs")

// maxDataBytes is the stated cap on data.js for 100 synthetic runs of the
// shape syntheticRun makes (docs/results.md, "How large the explorer
// grows").
const maxDataBytes = 20 << 20

// syntheticRun is a run of the default matrix's shape: 40 codecs, five
// scenarios, marshal and unmarshal (400 cells), ten samples per cell with
// per-pair speed-ups and per-sample B/op and allocs/op, a noise reading with
// the calibration loop's iteration count. Run i starts i hours after the
// first and its machine is a little slower or faster (drift).
func syntheticRun(t testing.TB, i int) *archive.Run {
	rng := rand.New(rand.NewPCG(uint64(i), 11))
	drift := 1 + 0.1*math.Sin(float64(i))
	doc := &results.Run{Baseline: results.DefaultBaseline, Count: 10,
		Env: env.Env{Go: "go1.27.4", GOOS: "linux", GOARCH: "amd64", CPU: "Synthetic CPU @ 2.0GHz", Serbench: "v0.9.0",
			Started: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour), Modules: map[string]string{},
			Noise: &env.Noise{Probes: 300, ProbeNs: 1e6 * drift, Iterations: 100000, Spread: 0.03}}}
	ids := []string{results.DefaultBaseline}
	for k := 1; k < 40; k++ {
		ids = append(ids, fmt.Sprintf("example.com/codec%02d", k))
	}
	for k, id := range ids {
		doc.Codecs = append(doc.Codecs, results.CodecInfo{Info: codecInfo(id, k)})
		for _, sc := range []string{"sse-event", "user-event", "ws-message", "annotation", "order-book"} {
			for _, op := range []string{results.OpMarshal, results.OpUnmarshal} {
				base := (200 + 37*float64(k)) * drift
				res := results.Row{Codec: id, Scenario: sc, Op: op, SizeBytes: 180 + k, BytesPerOp: int64(64 + k), AllocsPerOp: int64(1 + k%5),
					OK: true, Iterations: 5000}
				for range 10 {
					res.Samples = append(res.Samples, base*math.Exp(0.03*rng.NormFloat64()))
					res.SampleBytes = append(res.SampleBytes, float64(res.BytesPerOp))
					res.SampleAllocs = append(res.SampleAllocs, float64(res.AllocsPerOp))
					res.PairRatios = append(res.PairRatios, 200/(200+37*float64(k))*math.Exp(0.02*rng.NormFloat64()))
				}
				res.NsPerOp, res.NsPerOpLo, res.NsPerOpHi = stats.Summarize(res.Samples)
				res.Speedup, res.SpeedupLo, res.SpeedupHi = stats.Summarize(res.PairRatios)
				doc.Results = append(doc.Results, res)
			}
		}
	}
	var buf bytes.Buffer
	if err := results.WriteJSON(&buf, doc); err != nil {
		t.Fatal(err)
	}
	r, err := archive.Parse(buf.Bytes(), fmt.Sprintf("run%d.json", i))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestDataSize builds the site of 100 synthetic runs (-site.runs N for
// another count) and holds data.js under maxDataBytes: the explorer's data
// grows linearly with the archive. The size is logged (go test ./site -run
// TestDataSize -v -site.runs 1000 measures 1,000 runs).
func TestDataSize(t *testing.T) {
	if testing.Short() || childproc.RaceEnabled {
		// The size does not depend on -race; building 100 runs under it
		// takes a minute.
		t.Skip("builds 100 runs; checked without -short and -race")
	}
	var runs []*archive.Run
	for i := range *sizeRuns {
		runs = append(runs, syntheticRun(t, i))
	}
	d, err := site.Build(context.Background(), runs)
	if err != nil {
		t.Fatal(err)
	}
	files, err := site.Files(d)
	if err != nil {
		t.Fatal(err)
	}
	n := len(files["data.js"])
	t.Logf("%d runs of %d cells: data.js %d bytes (%.1f MB)", len(runs), len(runs[0].Doc.Results), n, float64(n)/1e6)
	if *sizeRuns == 100 && n > maxDataBytes {
		t.Errorf("data.js of 100 runs is %d bytes, over the stated %d", n, maxDataBytes)
	}
}

// codecInfo is a synthetic codec's properties, varied by k.
func codecInfo(id string, k int) codec.Info {
	kinds := []codec.Kind{codec.Reflect, codec.Codegen, codec.JIT, codec.Manual}
	return codec.Info{ID: id, Module: id, Format: []string{"JSON", "MessagePack", "CBOR"}[k%3], Kind: kinds[k%4],
		Version: "v1.0.0", LastRelease: "2026-01-01", Default: k < 10}
}

// TestBuildDriftProof checks that the explorer's data carries what the page
// normalises by (each run's calibration loop, as serbench compare reads it)
// and that neighbouring runs are compared by speed-up, the baseline's own
// cells by the calibration loop.
func TestBuildDriftProof(t *testing.T) {
	runs := []*archive.Run{syntheticRun(t, 0), syntheticRun(t, 1)}
	d, err := site.Build(context.Background(), runs)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range runs {
		want := compare.CalibrationLoopNs(r.Doc.Env)
		if got := d.Runs[i].LoopNs; want == 0 || math.Abs(got-want) > 1e-3*want || d.Runs[i].Baseline != results.DefaultBaseline {
			t.Errorf("run %d: loop %v ns, baseline %q; want %v ns, %s", i, got, d.Runs[i].Baseline, want, results.DefaultBaseline)
		}
	}
	if len(d.Diffs) != 1 {
		t.Fatalf("%d diffs for 2 runs", len(d.Diffs))
	}
	for _, row := range d.Diffs[0].Rows {
		want := compare.BasisPairs
		if d.Codecs[row.Codec].ID == results.DefaultBaseline {
			want = compare.BasisMeter
		}
		if row.Basis != want {
			t.Fatalf("%s: basis %q, want %q", d.Codecs[row.Codec].ID, row.Basis, want)
		}
	}
}
