package report_test

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/results"
)

// adaptiveFixture is a run with adaptive sampling, noise figures, speed-up
// intervals and per-sample allocation figures: three codecs on one
// scenario, where the fastest is not the smallest and one writes the
// baseline's bytes.
func adaptiveFixture() *results.Run {
	steal := 0.004
	res := func(c, op string, ns, lo, hi float64, size int, sp, splo, sphi float64, missed, same bool) results.Row {
		n := 8
		if missed {
			n = 14
		}
		r := results.Row{Codec: c, Scenario: "ws-message", Op: op, NsPerOp: ns, NsPerOpLo: lo, NsPerOpHi: hi,
			SizeBytes: size, Derived: results.Derived{Speedup: sp, SpeedupP: 0.001, SpeedupLo: splo, SpeedupHi: sphi}, OK: true, Iterations: 1000,
			BytesPerOp: 96, AllocsPerOp: 1, TargetMissed: missed, SameBytes: same, HalfWidth: max(hi/ns-1, 1-lo/ns)}
		for i := range n {
			r.Samples = append(r.Samples, ns*(1+0.01*float64(i%3-1)))
			r.SampleBytes = append(r.SampleBytes, 96+float64(i%2)*0.5)
			r.SampleAllocs = append(r.SampleAllocs, 1+float64(i%2))
		}
		r.SamplesTaken = n
		if c == "encoding/json" {
			r.SpeedupP, r.SpeedupLo, r.SpeedupHi = 1, 0, 0
		}
		return r
	}
	return &results.Run{
		Env: env.Env{Go: "go1.26.8", GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU", NumCPU: 2, GOMAXPROCS: 2,
			Started: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC),
			Noise:   &env.Noise{Probes: 30, ProbeNs: 24e6, Spread: 0.062, Drift: -0.011, Steal: &steal}},
		Codecs: []results.CodecInfo{
			{Info: codec.Info{ID: "encoding/json", Module: "std", Kind: codec.Reflect}},
			{Info: codec.Info{ID: "go-json", Module: "github.com/goccy/go-json", Kind: codec.Reflect}},
			{Info: codec.Info{ID: "wire", Module: "github.com/serbench/serbench", Kind: codec.Manual, Binary: true}},
			{Info: codec.Info{ID: "sonic", Module: "github.com/bytedance/sonic", Kind: codec.JIT}},
			{Info: codec.Info{ID: "memmove", Module: "github.com/serbench/serbench", Kind: codec.Reference}},
		},
		Scenarios: []results.ScenarioInfo{{ID: "ws-message", Type: "*scenario.WSMessage"}},
		Baseline:  "encoding/json",
		Count:     6,
		Target:    0.03,
		Results: []results.Row{
			res("encoding/json", "marshal", 1000, 990, 1010, 86, 1, 0, 0, false, true),
			res("encoding/json", "unmarshal", 3000, 2950, 3040, 86, 1, 0, 0, false, false),
			res("go-json", "marshal", 500, 495, 505, 86, 2, 1.96, 2.05, false, true),
			res("go-json", "unmarshal", 1500, 1470, 1560, 86, 2, 1.9, 2.1, false, false),
			res("wire", "marshal", 200, 190, 230, 46, 5, 4.5, 5.3, true, false),
			res("wire", "unmarshal", 600, 595, 610, 46, 5, 4.8, 5.1, false, false),
			res("sonic", "marshal", 150, 148, 152, 90, 6.67, 6.5, 6.8, false, false),
			res("sonic", "unmarshal", 500, 490, 510, 90, 6, 5.8, 6.2, false, false),
			res("memmove", "marshal", 10, 9, 11, 46, 100, 90, 110, false, false),
			res("memmove", "unmarshal", 10, 9, 11, 46, 300, 290, 310, false, false),
		},
	}
}

// A codec on generated types has a convert cell, which a user of it pays
// with every message: the recommendation adds it to marshal + unmarshal,
// says so, and leaves out a codec whose conversion did not round-trip.
func TestRecommendConvert(t *testing.T) {
	pb := func(op string, ns float64, ok bool) results.Row {
		return results.Row{Codec: "protobuf", Scenario: "ws-message", Op: op, NsPerOp: ns, SizeBytes: 40, OK: ok, Samples: []float64{ns}}
	}
	withPB := func(convertNs float64, convertOK bool) *results.Run {
		doc := adaptiveFixture()
		doc.Codecs = append(doc.Codecs, results.CodecInfo{Info: codec.Info{ID: "protobuf", Module: "google.golang.org/protobuf", Kind: codec.Codegen}})
		doc.Results = append(doc.Results, pb("marshal", 100, true), pb("unmarshal", 200, true))
		if convertNs > 0 {
			doc.Results = append(doc.Results, pb("convert", convertNs, convertOK))
		}
		return doc
	}
	// 300 ns without conversion, 800 ns with it: sonic (650 ns) is faster.
	r := results.Recommend(withPB(500, true))[0]
	if r.Speed == nil || r.Speed.Codec != "sonic" || r.Size == nil || r.Size.Codec != "protobuf" {
		t.Fatalf("picks speed %+v size %+v, want sonic and protobuf", r.Speed, r.Size)
	}
	if r.Size.NsPerOp != 800 || r.Size.ConvertNsPerOp != 500 || math.Abs(r.Size.Speedup-5) > 1e-9 {
		t.Errorf("protobuf %+v, want 800 ns with 500 of convert, 5x (4000 ns over 800)", *r.Size)
	}
	if want := "for size protobuf (40 B, 800 ns with convert)"; !strings.Contains(r.Text, want) {
		t.Errorf("text %q lacks %q", r.Text, want)
	}
	if got := r.Front[len(r.Front)-1]; got.Codec != "protobuf" || got.NsPerOp != 800 {
		t.Errorf("front %+v, want protobuf at 800 ns last", r.Front)
	}
	var out bytes.Buffer
	doc := withPB(500, true)
	doc = results.Analyze(doc)
	if err := report.Table(&out, doc); err != nil || !strings.Contains(out.String(), "protobuf (800 ns with convert, 40 B)") {
		t.Errorf("table (%v) lacks the front's convert:\n%s", err, out.String())
	}
	// A cheap conversion keeps protobuf the fastest, and the figure says
	// what it holds.
	r = results.Recommend(withPB(50, true))[0]
	if want := "for speed protobuf (350 ns marshal + unmarshal + convert, 11.43x encoding/json)"; !strings.Contains(r.Text, want) {
		t.Errorf("text %q lacks %q", r.Text, want)
	}
	// No convert cell (a codec on the user's own type): marshal + unmarshal.
	r = results.Recommend(withPB(0, true))[0]
	if want := "for speed protobuf (300 ns marshal + unmarshal, 13.33x encoding/json)"; !strings.Contains(r.Text, want) || r.Speed.ConvertNsPerOp != 0 {
		t.Errorf("text %q lacks %q (%+v)", r.Text, want, r.Speed)
	}
	// A conversion that did not round-trip: not an exact round trip.
	for _, c := range results.Recommend(withPB(50, false))[0].Front {
		if c.Codec == "protobuf" {
			t.Errorf("protobuf with a lossy convert on the front: %+v", c)
		}
	}
}
