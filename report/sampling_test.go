package report_test

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/dropin"
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

func TestRecommend(t *testing.T) {
	recs := results.Recommend(adaptiveFixture())
	if len(recs) != 1 {
		t.Fatalf("%d recommendations, want 1", len(recs))
	}
	r := recs[0]
	var front []string
	for _, c := range r.Front {
		front = append(front, c.Codec)
	}
	// sonic is fastest (650 ns), go-json smallest of the rest (86 B); wire
	// (46 B, 800 ns) is left out as a hand-written codec (Kind Manual), and
	// memmove as a reference, not a codec; encoding/json is dominated.
	if got, want := strings.Join(front, " "), "sonic go-json"; got != want {
		t.Errorf("front %q, want %q", got, want)
	}
	if r.Speed == nil || r.Speed.Codec != "sonic" || r.Size == nil || r.Size.Codec != "go-json" || r.DropIn == nil || r.DropIn.Codec != "go-json" {
		t.Errorf("picks speed %+v size %+v drop-in %+v, want sonic, go-json, go-json", r.Speed, r.Size, r.DropIn)
	}
	doc := adaptiveFixture()
	doc.Codecs[2].Kind = codec.Codegen // the same figures from a library's generated code
	if r := results.Recommend(doc)[0]; r.Size == nil || r.Size.Codec != "wire" {
		t.Errorf("a codegen codec at 46 B is not the size pick: %+v", r.Size)
	}
	if r.DropIn != nil && math.Abs(r.DropIn.Speedup-2) > 1e-9 {
		t.Errorf("go-json speed-up %v, want 2 (4000 ns over 2000 ns)", r.DropIn.Speedup)
	}
}

// A library archived upstream (codec.Info.Archived) is never picked; one
// that would have been on the front is named in the text.
func TestRecommendArchived(t *testing.T) {
	doc := adaptiveFixture()
	doc.Codecs[3].Archived = true // sonic, the fastest
	r := results.Recommend(doc)[0]
	for _, c := range r.Front {
		if c.Codec == "sonic" {
			t.Errorf("archived sonic on the front: %+v", r.Front)
		}
	}
	if r.Speed == nil || r.Speed.Codec != "go-json" {
		t.Errorf("speed pick %+v, want go-json once sonic is archived", r.Speed)
	}
	if want := "Left out as archived upstream, though on the front otherwise: sonic ("; !strings.Contains(r.Text, want) {
		t.Errorf("text %q lacks %q", r.Text, want)
	}
	doc.Codecs[1].Archived, doc.Codecs[3].Archived = true, false // go-json
	r = results.Recommend(doc)[0]
	if r.DropIn != nil && r.DropIn.Codec == "go-json" || r.Size != nil && r.Size.Codec == "go-json" {
		t.Errorf("archived go-json picked: size %+v, drop-in %+v", r.Size, r.DropIn)
	}
	if !strings.Contains(r.Text, "otherwise: go-json (2.00 µs, 86 B).") {
		t.Errorf("go-json, smallest at 86 B, not named: %q", r.Text)
	}
	for i := range doc.Results {
		if doc.Results[i].Codec == "go-json" {
			doc.Results[i].SizeBytes = 100 // now sonic (650 ns, 90 B) dominates it
		}
	}
	if r = results.Recommend(doc)[0]; strings.Contains(r.Text, "archived") {
		t.Errorf("a dominated archived codec named: %q", r.Text)
	}
}

func TestGeomeans(t *testing.T) {
	doc := adaptiveFixture()
	// A second scenario for go-json marshal at 8x: the geomean of 2 and 8 is 4.
	doc.Results = append(doc.Results,
		results.Row{Codec: "encoding/json", Scenario: "b", Op: "marshal", NsPerOp: 800, Derived: results.Derived{Speedup: 1}, OK: true, Samples: []float64{800}},
		results.Row{Codec: "go-json", Scenario: "b", Op: "marshal", NsPerOp: 100, Derived: results.Derived{Speedup: 8, SpeedupLo: 7, SpeedupHi: 9}, OK: true, Samples: []float64{100}})
	for _, g := range results.Geomeans(doc) {
		if g.Codec != "go-json" || g.Op != "marshal" {
			continue
		}
		if g.Cells != 2 || math.Abs(g.Speedup-4) > 1e-9 {
			t.Errorf("go-json marshal geomean %v over %d cells, want 4 over 2", g.Speedup, g.Cells)
		}
		if !(g.SpeedupLo < 4 && g.SpeedupHi > 4) {
			t.Errorf("interval [%v, %v] does not hold 4", g.SpeedupLo, g.SpeedupHi)
		}
		return
	}
	t.Error("no go-json marshal geomean")
}

// A file that does not record byte equality (go test or benchfmt output)
// gets no drop-in claim either way; a run that compared bytes and found no
// match says so.
func TestRecommendDropInUnknown(t *testing.T) {
	doc := adaptiveFixture()
	for i := range doc.Results {
		doc.Results[i].SameBytes = false
	}
	if text := results.Recommend(doc)[0].Text; !strings.Contains(text, "does not say which codecs write the same bytes") {
		t.Errorf("unknown byte equality: %q", text)
	}
	for i, r := range doc.Results {
		doc.Results[i].SameBytes = r.Codec == "encoding/json" && r.Op == "marshal"
	}
	if text := results.Recommend(doc)[0].Text; !strings.Contains(text, "no codec writes the same bytes") {
		t.Errorf("compared, none equal: %q", text)
	}
}

// With measured drop-in classes (results.CodecInfo.DropIn), the pick is the
// fastest codec of class drop-in that also wrote the baseline's bytes on
// this scenario; a faster codec with the same bytes but other decoding is
// named with the probes that differ.
func TestRecommendDropInMeasured(t *testing.T) {
	negzero := []dropin.ProbeOutcome{{Probe: "float-negzero", Ref: "kept", Got: "changed (.F: -0 → 0)"}, {Probe: "deep-nesting", Ref: "error (unmarshal)", Got: "error (marshal)"}}
	for _, tc := range []struct {
		name                 string
		gojson, sonic        dropin.Class
		gojsonSame           bool
		wantPick, wantInText string
	}{
		{"drop-in, a faster one decodes differently", dropin.Yes, dropin.SameBytes, true, "go-json",
			"as a drop-in replacement of encoding/json (same bytes, same decoding of the fidelity probes) go-json (2.00 µs, 2.00x encoding/json); faster, sonic writes the same bytes but decodes differently on float-negzero, deep-nesting."},
		{"same bytes only", dropin.SameBytes, dropin.SameBytes, true, "",
			"no codec both writes the same bytes as encoding/json and decodes the probes as it does, so none is a drop-in replacement; the fastest codec with the same bytes, sonic, decodes differently on float-negzero, deep-nesting."},
		{"drop-in class, other bytes here", dropin.Yes, dropin.No, false, "",
			"no codec both writes the same bytes as encoding/json and decodes the probes as it does, so none is a drop-in replacement."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := adaptiveFixture()
			for i, r := range doc.Results {
				switch {
				case r.Codec == "sonic" && r.Op == "marshal":
					doc.Results[i].SameBytes = true
				case r.Codec == "go-json" && r.Op == "marshal":
					doc.Results[i].SameBytes = tc.gojsonSame
				}
			}
			for i, c := range doc.Codecs {
				switch c.ID {
				case "go-json":
					doc.Codecs[i].DropIn = &dropin.Verdict{Of: "encoding/json", Class: tc.gojson}
				case "sonic":
					doc.Codecs[i].DropIn = &dropin.Verdict{Of: "encoding/json", Class: tc.sonic, Probes: negzero}
				}
			}
			r := results.Recommend(doc)[0]
			pick := ""
			if r.DropIn != nil {
				pick = r.DropIn.Codec
			}
			if pick != tc.wantPick {
				t.Errorf("drop-in pick %q, want %q", pick, tc.wantPick)
			}
			if !strings.HasSuffix(r.Text, tc.wantInText) {
				t.Errorf("text %q\nwant it to end %q", r.Text, tc.wantInText)
			}
		})
	}
}

// With paired speed-ups, the recommendation ranks by them: a codec whose
// own ns/op was taken while the machine was slow still wins when its
// pairs say it is faster.
func TestRecommendPaired(t *testing.T) {
	doc := adaptiveFixture()
	for i := range doc.Results {
		r := &doc.Results[i]
		if r.Codec == "go-json" {
			// go-json's samples ran on a machine 4x slower (2000 and
			// 6000 ns), but each pair says 8x encoding/json.
			r.NsPerOp *= 4
			r.Speedup, r.PairRatios = 8, []float64{8, 8, 8, 8, 8, 8}
		}
	}
	r := results.Recommend(doc)[0]
	if r.Speed == nil || r.Speed.Codec != "go-json" || math.Abs(r.Speed.NsPerOp-500) > 1e-9 {
		t.Errorf("speed pick %+v, want go-json at 1000/8 + 3000/8 = 500 ns", r.Speed)
	}
}

// TestNoiseJSON checks that a run document with every noise figure meets
// the schema and uses the field names docs/reference.md documents.
func TestNoiseJSON(t *testing.T) {
	doc := adaptiveFixture()
	own := 1.12
	doc.Env.Noise.ILP = &env.ProbeStats{Probes: 30, ProbeNs: 1e6, MinNs: 9.8e5, Spread: 0.062, Drift: 0.01}
	doc.Env.Noise.Chase = &env.ProbeStats{Probes: 30, ProbeNs: 1e6, MinNs: 9.9e5, Spread: 0.031}
	doc.Env.Noise.Stream = &env.ProbeStats{Probes: 30, ProbeNs: 1e6, MinNs: 9.9e5, Spread: 0.02}
	doc.Env.Noise.CPUBusy = []env.CPUBusy{{CPU: 0, Busy: 0.99}, {CPU: 1, Busy: 0.38}}
	doc.Env.Noise.OwnCPUs = &own
	doc.Env.Noise.CoreSharing = &env.CoreSharing{CPU: 0, Neighbour: 1, IdleNs: 1e6, BusyNs: 1.24e6, Slowdown: 1.24, Shared: true}
	doc.Env.Noise.Unreadable = []string{"steal and per-CPU busy time: env: open /proc/stat: no such file or directory"}
	var buf bytes.Buffer
	if err := results.WriteJSON(&buf, doc); err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(buf.Bytes()); err != nil {
		t.Error(err)
	}
	for _, name := range []string{`"ilp":{`, `"chase":{`, `"stream":{`, `"min_ns":`, `"cpu_busy":[{"cpu":0,"busy":0.99}`, `"own_cpus":1.12`,
		`"core_sharing":{"cpu":0,"neighbour":1,"idle_ns":1000000,"busy_ns":1240000,"slowdown":1.24,"shared":true}`, `"unreadable":[`} {
		if !strings.Contains(strings.Join(strings.Fields(buf.String()), ""), name) {
			t.Errorf("JSON lacks %s", name)
		}
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

// With the baseline absent, unable to take the payload, lossy or failed,
// the drop-in clause says which.
func TestRecommendBaselineMissing(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(r *results.Row) bool // false drops the cell
		want string
	}{
		{"absent", func(r *results.Row) bool { return false }, "no drop-in figure (encoding/json did not run here)."},
		{"n/a", func(r *results.Row) bool {
			r.OK, r.NA, r.Error, r.Samples = false, true, "cannot take it", nil
			return true
		}, "no drop-in figure (encoding/json cannot take this payload)."},
		{"lossy", func(r *results.Row) bool {
			r.OK, r.Error = r.Op == "marshal", "fidelity: .N: want 7 of type int64, got 7 of type float64"
			return true
		}, "no drop-in figure (encoding/json ran but did not round-trip this payload exactly; its note in the table says where)."},
		{"failed", func(r *results.Row) bool {
			r.OK, r.Error, r.Samples = false, "marshal: boom", nil
			return true
		}, "no drop-in figure (encoding/json failed on this payload; its note in the table says how)."},
	} {
		doc := adaptiveFixture()
		var kept []results.Row
		for _, r := range doc.Results {
			if r.Codec != "encoding/json" || tc.edit(&r) {
				kept = append(kept, r)
			}
		}
		doc.Results = kept
		if text := results.Recommend(doc)[0].Text; !strings.Contains(text, tc.want) {
			t.Errorf("%s: %q lacks %q", tc.name, text, tc.want)
		}
	}
}
