package results_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/serbench/serbench/internal/runtest"
	"github.com/serbench/serbench/results"
)

func TestPlateaus(t *testing.T) {
	ps := results.Plateaus(runtest.Sweep())
	if len(ps) != 6 {
		t.Fatalf("%d plateaus, want 6 (3 codecs × 2 ops): %+v", len(ps), ps)
	}
	if f := ps[4]; f.Codec != "falls" || !f.Falls || f.FromBytes != 0 || f.MaxAtBytes != 16<<10 {
		t.Errorf("falls: %+v", f)
	}
	json, fast := ps[0], ps[2]
	if json.Codec != "encoding/json" || json.FromBytes != 16<<10 || json.MaxMBPerS != 200 || json.MaxAtBytes != 1<<20 {
		t.Errorf("encoding/json: %+v", json)
	}
	if !strings.Contains(json.Text, "stops falling at 16KiB") {
		t.Errorf("encoding/json text: %s", json.Text)
	}
	if fast.Codec != "fast" || fast.FromBytes != 0 || !strings.Contains(fast.Text, "no plateau") {
		t.Errorf("fast: %+v", fast)
	}
	if got := results.Plateaus(&results.Run{Results: runtest.Sweep().Results}); got != nil {
		t.Errorf("without sweep scenarios: %+v", got)
	}
}

// TestBenchfmtKeepsScenarioNotes writes a sweep and a list workload as
// benchfmt and reads them back: the sweep points (so the plateaus), the
// element count (so B/elem) and a warning for a note it cannot read.
func TestBenchfmtKeepsScenarioNotes(t *testing.T) {
	doc := runtest.Sweep()
	doc.Scenarios = append(doc.Scenarios, results.ScenarioInfo{ID: "annot/coo@small", Elements: 100})
	doc.Results = append(doc.Results,
		results.Row{Codec: "wire", Scenario: "annot/coo@small", Op: results.OpMarshal, NsPerOp: 900, SizeBytes: 693,
			BytesPerElem: 6.93, OK: true, Samples: []float64{900}, Iterations: 1},
		results.Row{Codec: "protobuf", Scenario: "annot/coo@small", Op: results.OpConvert, NsPerOp: 400,
			OK: true, Samples: []float64{400}, Iterations: 1})
	var buf bytes.Buffer
	if err := results.WriteBenchfmt(&buf, doc); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "// serbench: scenario sweep.user-event@16KiB: sweep_family=user-event sweep_target_bytes=16384 sweep_json_bytes=16391 sweep_elements=2\n") {
		t.Errorf("no sweep note in:\n%s", buf.String())
	}
	got, err := results.Read(bytes.NewReader(buf.Bytes()), "sweep.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Warnings) > 0 {
		t.Errorf("warnings: %q", got.Warnings)
	}
	want := map[string]results.ScenarioInfo{}
	for _, s := range doc.Scenarios {
		want[s.ID] = s
	}
	if len(got.Scenarios) != len(want) {
		t.Fatalf("%d scenarios read back, want %d: %+v", len(got.Scenarios), len(want), got.Scenarios)
	}
	for _, s := range got.Scenarios {
		w := want[s.ID]
		if s.Elements != w.Elements || (s.Sweep == nil) != (w.Sweep == nil) || (s.Sweep != nil && *s.Sweep != *w.Sweep) {
			t.Errorf("%s: got %+v %+v, want %+v %+v", s.ID, s, s.Sweep, w, w.Sweep)
		}
	}
	if ps, wps := results.Plateaus(got), results.Plateaus(doc); len(ps) != len(wps) || ps[0].FromBytes != wps[0].FromBytes || ps[4].Falls != wps[4].Falls {
		t.Errorf("plateaus read back %+v, want %+v", ps, wps)
	}
	for _, r := range got.Results {
		switch {
		case r.Codec == "wire" && r.BytesPerElem != 6.93:
			t.Errorf("wire B/elem %v, want 6.93", r.BytesPerElem)
		case r.Op == results.OpConvert && r.BytesPerElem != 0:
			t.Errorf("convert row has B/elem %v", r.BytesPerElem)
		}
	}

	bad := buf.String() + "// serbench: scenario x: elements=many\n"
	got, err = results.Read(strings.NewReader(bad), "bad.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], `elements="many" is not a count`) {
		t.Errorf("warnings %q, want one on elements=many", got.Warnings)
	}
}
