package report_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/results"
)

// newFixture is fixture() after a change: msgpack marshal 20% faster with
// fewer bytes, msgpack on corpus/x gone, a cbor cell added.
func newFixture() *results.Run {
	doc := fixture()
	doc.Env.Modules["github.com/vmihailenco/msgpack/v5"] = "v5.4.2"
	var rs []results.Row
	for _, r := range doc.Results {
		if r.Codec == "msgpack" && r.Scenario == "corpus/x" {
			continue
		}
		if r.Codec == "msgpack" && r.Op == "marshal" {
			r.Samples = scale(r.Samples, 0.8)
			r.NsPerOp, r.NsPerOpLo, r.NsPerOpHi = r.NsPerOp*0.8, r.NsPerOpLo*0.8, r.NsPerOpHi*0.8
			r.Speedup /= 0.8
			r.BytesPerOp = 144
		}
		rs = append(rs, r)
	}
	rs = append(rs, results.Row{Codec: "cbor", Scenario: "sse-event", Op: "marshal", NsPerOp: 300, OK: true, Samples: []float64{300, 300, 300}, Iterations: 10})
	doc.Results = rs
	return doc
}

func scale(xs []float64, f float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * f
	}
	return out
}

func TestCompare(t *testing.T) {
	c, err := compare.Compare(fixture(), newFixture(), compare.CompareOptions{OldName: "old.json", NewName: "new.txt"})
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]compare.CompareRow{}
	for _, r := range c.Rows {
		rows[r.Codec+" "+r.Scenario+" "+r.Op] = r
	}
	for _, tc := range []struct {
		cell        string
		compared    bool
		significant bool
		delta       string
	}{
		{"msgpack sse-event marshal", true, true, "-20.00%"},
		{"encoding/json sse-event marshal", true, false, "~"},
		{"msgpack sse-event unmarshal", true, false, "~"},
		// 3+3 samples can never reach p < 0.05.
		{"encoding/json corpus/x marshal", true, false, "~"},
		{"encoding/json corpus/x unmarshal", false, false, ""},
	} {
		t.Run(tc.cell, func(t *testing.T) {
			r, ok := rows[tc.cell]
			if !ok {
				t.Fatalf("no row")
			}
			if r.Compared != tc.compared || r.Significant != tc.significant || r.Delta != tc.delta {
				t.Errorf("compared %v significant %v delta %q, want %v %v %q", r.Compared, r.Significant, r.Delta, tc.compared, tc.significant, tc.delta)
			}
		})
	}
	if r := rows["encoding/json corpus/x marshal"]; len(r.Warnings) == 0 {
		t.Errorf("3+3 samples gave no warning")
	}
	if len(c.OnlyOld) != 2 || c.OnlyOld[0].Codec != "msgpack" || len(c.OnlyNew) != 1 || c.OnlyNew[0].Codec != "cbor" {
		t.Errorf("only old %v, only new %v", c.OnlyOld, c.OnlyNew)
	}
	if _, err := compare.Compare(fixture(), fixture(), compare.CompareOptions{Alpha: 1.5}); err == nil || !strings.Contains(err.Error(), "1.5") {
		t.Errorf("alpha 1.5: err = %v", err)
	}
}

func TestCompareGolden(t *testing.T) {
	c, err := compare.Compare(fixture(), newFixture(), compare.CompareOptions{OldName: "old.json", NewName: "new.txt"})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range report.CompareFormats {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := report.WriteComparison(&buf, format, c); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "compare."+format), buf.Bytes())
			if err := report.WriteComparison(failWriter{}, format, c); err == nil {
				t.Errorf("a failing writer gave no error")
			}
		})
	}
	if err := report.WriteComparison(&bytes.Buffer{}, "html", c); err == nil || !strings.Contains(err.Error(), `"html"`) {
		t.Errorf("unknown format: err = %v", err)
	}
}

// B/op and allocs/op are tested like ns/op when both runs carry per-sample
// figures: a clear drop is significant and printed with its delta, equal
// samples are not, and a changed size is noted.
func TestCompareAllocations(t *testing.T) {
	mk := func(bytes, allocs float64, size int) *results.Run {
		s := func(c float64) []float64 { return []float64{c, c, c * 1.01, c, c * 0.99, c, c, c} }
		return &results.Run{Results: []results.Row{{
			Codec: "cbor", Scenario: "ws-message", Op: "marshal", OK: true, SizeBytes: size,
			NsPerOp: 100, Samples: s(100), BytesPerOp: int64(bytes), AllocsPerOp: int64(allocs),
			SampleBytes: s(bytes), SampleAllocs: s(allocs)}}}
	}
	c, err := compare.Compare(mk(200, 4, 71), mk(100, 4, 70), compare.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := c.Rows[0]
	if r.Bytes == nil || !r.Bytes.Significant || r.Bytes.Delta != "-50.00%" {
		t.Errorf("B/op change %+v, want a significant -50.00%%", r.Bytes)
	}
	if r.Allocs == nil || r.Allocs.Significant {
		t.Errorf("allocs/op change %+v, want not significant", r.Allocs)
	}
	if !r.SizeChanged {
		t.Error("size 71 → 70 not noted")
	}
	var buf bytes.Buffer
	if err := report.WriteComparison(&buf, "table", c); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"200 → 100 (-50.00%)", "size 71 → 70 B"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}
	old := mk(200, 4, 71)
	old.Results[0].SampleBytes, old.Results[0].SampleAllocs = nil, nil
	if c, _ := compare.Compare(old, mk(100, 4, 71), compare.CompareOptions{}); c.Rows[0].Bytes != nil {
		t.Errorf("a run with medians only was tested: %+v", c.Rows[0].Bytes)
	}
}

// DiffEnv names the first field that differs, in its order, and skips
// fields either run does not record.
func TestDiffEnv(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(d *results.Run)
		want string
	}{
		{"same", func(d *results.Run) {}, ""},
		{"go and engine", func(d *results.Run) { d.Env.Go, d.Env.JSONEngine = "go1.27.4", env.JSONEngineV2 }, "env.go (go1.26.8 vs go1.27.4)"},
		{"cpu first", func(d *results.Run) { d.Env.Go, d.Env.CPU = "go1.27.4", "Other CPU" }, "env.cpu (Test CPU @ 2.0GHz vs Other CPU)"},
		{"cpus", func(d *results.Run) { d.Env.NumCPU = 4 }, "env.num_cpu (2 vs 4)"},
		{"goexperiment", func(d *results.Run) { d.Env.GOEXPERIMENT = "nojsonv2" }, "env.goexperiment (none vs nojsonv2)"},
		{"baseline", func(d *results.Run) { d.Baseline = "sonic/std" }, "baseline (encoding/json vs sonic/std)"},
		{"not recorded", func(d *results.Run) { d.Env.CPU, d.Env.NumCPU, d.Env.JSONEngine = "", 0, "" }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := fixture()
			tc.edit(n)
			got := ""
			if d := compare.DiffEnv(fixture(), n); d != nil {
				got = d.String()
			}
			if got != tc.want {
				t.Errorf("DiffEnv = %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := compare.Compare(fixture(), fixture(), compare.CompareOptions{By: "time"}); err == nil || !strings.Contains(err.Error(), `"time"`) {
		t.Errorf("By time: err = %v", err)
	}
}
