package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

// sweepDoc is a run of two codecs on a three-point sweep with made-up
// figures.
func sweepDoc() *results.Run {
	doc := &results.Run{Baseline: "encoding/json"}
	sizes := []int64{1 << 10, 16 << 10, 1 << 20}
	mb := map[string][]float64{"encoding/json": {100, 190, 200}, "fast": {300, 700, 1500}, "falls": {300, 700, 500}}
	for i, n := range sizes {
		id := "sweep/user-event@" + scenario.SizeLabel(n)
		doc.Scenarios = append(doc.Scenarios, results.ScenarioInfo{ID: id, Type: "*scenario.UserEvent",
			Sweep: &scenario.SweepPoint{Family: "user-event", TargetBytes: n, JSONBytes: n + 7, Elements: i + 1}})
		for _, c := range []string{"encoding/json", "fast", "falls"} {
			for _, op := range []string{results.OpMarshal, results.OpUnmarshal} {
				size := int(n)
				ns := float64(size) / mb[c][i] * 1e3
				doc.Results = append(doc.Results, results.Row{Codec: c, Scenario: id, Op: op, NsPerOp: ns, MBPerS: mb[c][i],
					SizeBytes: size, OK: true, Samples: []float64{ns}, Iterations: 1})
			}
		}
	}
	return doc
}

func TestPlateaus(t *testing.T) {
	ps := results.Plateaus(sweepDoc())
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
	if got := results.Plateaus(&results.Run{Results: sweepDoc().Results}); got != nil {
		t.Errorf("without sweep scenarios: %+v", got)
	}
}

func TestSweepReport(t *testing.T) {
	doc := sweepDoc()
	doc = results.Analyze(doc) // the writers show the plateaus Analyze finds
	var tab, html bytes.Buffer
	if err := Table(&tab, doc); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"size sweep (user-event): MB/s by encoding/json size", "1KiB=1031, 16KiB=16391, 1MiB=1048583",
		"from 16KiB", "none (still rising)", "none (falls after 16KiB)", "Throughput plateau: the smallest sweep size"} {
		if !strings.Contains(tab.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, tab.String())
		}
	}
	if err := HTML(&html, doc, nil); err != nil {
		t.Fatal(err)
	}
	page := html.String()
	i := strings.Index(page, `<section id="sweep">`)
	if i < 0 {
		t.Fatal("page has no sweep section")
	}
	sec := page[i : i+strings.Index(page[i:], "</section>")]
	if n := strings.Count(sec, "<svg"); n != 2 {
		t.Errorf("sweep section has %d charts, want 2", n)
	}
	for _, want := range []string{"encoding/json marshal: cost per byte stops falling at 16KiB", "fast unmarshal", "16KiB", "1MiB"} {
		if !strings.Contains(sec, want) {
			t.Errorf("sweep section lacks %q", want)
		}
	}
	for _, bad := range []string{"http:", "https:", "<?xml"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
}

func TestLogTicks125(t *testing.T) {
	var labels []string
	for _, tk := range (logTicks125{}).Ticks(40, 2500) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "50 100 200 500 1k 2k" {
		t.Errorf("labels %q", got)
	}
	if got := shortNumber(1e7); got != "10M" {
		t.Errorf("shortNumber(1e7) = %q", got)
	}
}

// TestBenchfmtKeepsScenarioNotes writes a sweep and a list workload as
// benchfmt and reads them back: the sweep points (so the plateaus), the
// element count (so B/elem) and a warning for a note it cannot read.
func TestBenchfmtKeepsScenarioNotes(t *testing.T) {
	doc := sweepDoc()
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
