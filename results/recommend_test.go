package results_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/dropin"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
)

func TestRecommend(t *testing.T) {
	recs := results.Recommend(reportRun(t, "adaptive"))
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
	doc := reportRun(t, "adaptive")
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
	doc := reportRun(t, "adaptive")
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
	doc := reportRun(t, "adaptive")
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
	doc := reportRun(t, "adaptive")
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
			doc := reportRun(t, "adaptive")
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
	doc := reportRun(t, "adaptive")
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
	doc := reportRun(t, "adaptive")
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
		doc := reportRun(t, "adaptive")
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
