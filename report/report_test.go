package report_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/listing"
	"github.com/serbench/serbench/plan"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

// fixture is a fixed document: every format's golden file is rendered from
// it, so the files never change between runs.
func fixture() *results.Run {
	samples := func(c float64) []float64 { return []float64{c * 0.98, c * 0.99, c, c, c * 1.01, c * 1.02} }
	return &results.Run{
		Env: env.Env{
			Go: "go1.26.8", JSONEngine: env.JSONEngineLegacy, GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU @ 2.0GHz",
			NumCPU: 2, GOMAXPROCS: 2, Started: time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC),
			Modules:  map[string]string{"github.com/vmihailenco/msgpack/v5": "v5.4.1", "github.com/bytedance/sonic": "v1.15.5"},
			Settings: []string{"count=6"},
		},
		Codecs: []results.CodecInfo{
			{Info: codec.Info{ID: "encoding/json", Module: "std", Version: "go1.26.8", Format: "JSON", Kind: codec.Reflect, Options: "defaults"}},
			{Info: codec.Info{ID: "msgpack", Module: "github.com/vmihailenco/msgpack/v5", Version: "v5.4.1", Format: "MessagePack", Kind: codec.Reflect, Binary: true, Options: "defaults"}},
		},
		Scenarios: []results.ScenarioInfo{{ID: "sse-event", Type: "*scenario.SSEEvent"}, {ID: "corpus/x", Type: "*any", Source: []scenario.SourceLoss{
			{Kind: "integer above 2^53 rounded", Count: 3, Path: `["ids"][1]`, Text: "9007199254740993", Decoded: "9007199254740992"},
			{Kind: "duplicate key, earlier values dropped", Count: 1, Path: `["a|b"]`, Text: `"a|b": 2`, Decoded: "2 (the last value; 1 dropped)"},
		}}},
		Baseline: "encoding/json",
		Count:    6,
		Warnings: []string{"corpus: toolchain corpus folder /nowhere not found; corpus scenarios skipped"},
		Results: []results.Row{
			{Codec: "encoding/json", Scenario: "sse-event", Op: "marshal", NsPerOp: 1286, NsPerOpLo: 1260, NsPerOpHi: 1311, MBPerS: 143.1, BytesPerOp: 192, AllocsPerOp: 2, SizeBytes: 184, Derived: results.Derived{Speedup: 1, SpeedupP: 1, FloorRatio: 128.6}, OK: true, Samples: samples(1286), Iterations: 1000,
				GCPer1kOps: 0.52, GCPauseNsPerOp: 3.5, PeakHeapBytes: 4 << 20,
				Parallel: []results.ParallelPoint{{Goroutines: 1, NsPerOp: 1290, OpsPerS: 775000, Scaling: 1}, {Goroutines: 2, NsPerOp: 670, OpsPerS: 1492000, Scaling: 1.93}}},
			{Codec: "encoding/json", Scenario: "sse-event", Op: "unmarshal", NsPerOp: 2100, NsPerOpLo: 2050, NsPerOpHi: 2200, MBPerS: 87.6, BytesPerOp: 400, AllocsPerOp: 7, SizeBytes: 184, Derived: results.Derived{Speedup: 1, SpeedupP: 1}, OK: true, Samples: samples(2100), Iterations: 500},
			{Codec: "msgpack", Scenario: "sse-event", Op: "marshal", NsPerOp: 268, NsPerOpLo: 265, NsPerOpHi: 290, MBPerS: 570.9, BytesPerOp: 160, AllocsPerOp: 2, SizeBytes: 153, Derived: results.Derived{Speedup: 4.8, SpeedupP: 0.002, FloorRatio: 26.8}, OK: true, Samples: samples(268), Iterations: 5000},
			{Codec: "msgpack", Scenario: "sse-event", Op: "unmarshal", NsPerOp: 2080, NsPerOpLo: 1900, NsPerOpHi: 2300, MBPerS: 73.6, BytesPerOp: 352, AllocsPerOp: 9, SizeBytes: 153, Derived: results.Derived{Speedup: 1.01, SpeedupP: 0.7}, OK: false,
				Error: "fidelity: .Meta: want map[src:feed-a], got nil", Samples: samples(2080), Iterations: 500},
			{Codec: "encoding/json", Scenario: "corpus/x", Op: "marshal", NsPerOp: 50.5, MBPerS: 10, BytesPerOp: 8, AllocsPerOp: 1, SizeBytes: 5, Derived: results.Derived{Speedup: 1, SpeedupP: 1}, OK: true, Samples: []float64{50, 50.5, 51}, Iterations: 100},
			{Codec: "encoding/json", Scenario: "corpus/x", Op: "unmarshal", Error: "unmarshal: invalid character", Iterations: 0},
			{Codec: "msgpack", Scenario: "corpus/x", Op: "marshal", NA: true, Error: "msgpack: not supported: a | pipe"},
			{Codec: "msgpack", Scenario: "corpus/x", Op: "unmarshal", NA: true, Error: "msgpack: not supported: a | pipe"},
		},
	}
}

func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  func() *results.Run
	}{{"fixture", fixture}, {"adaptive", adaptiveFixture}} {
		for _, format := range report.Formats {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				var buf bytes.Buffer
				doc := tc.doc()
				doc = results.Analyze(doc) // as serbench run builds it
				calc, err := plan.NewCalculator(doc)
				if err != nil {
					t.Fatal(err)
				}
				if err := report.Write(&buf, format, doc, calc); err != nil {
					t.Fatal(err)
				}
				golden.Check(t, filepath.Join("testdata", tc.name+"."+format), buf.Bytes())
			})
		}
	}
}

func TestList(t *testing.T) {
	doc := fixture()
	infos := append([]results.CodecInfo(nil), doc.Codecs...)
	infos[0].Default, infos[0].Time = true, "ns, RFC 3339 text: offset kept, zone name lost"
	infos[len(infos)-1].Status = "archived upstream"
	var l listing.Listing
	l.Codecs, l.Groups = listing.ListCodecs(infos)
	l.Scenarios = []listing.ListedScenario{{ID: "sse-event", Type: "*scenario.SSEEvent", JSONBytes: 184}, {ID: "corpus/x", Type: "*any", JSONErr: errors.New("json: unsupported value")}}
	var buf bytes.Buffer
	if err := listing.List(&buf, l); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "list.txt"), buf.Bytes())
	buf.Reset()
	if err := listing.ListJSON(&buf, l); err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(buf.Bytes()); err != nil {
		t.Error(err)
	}
	golden.Check(t, filepath.Join("testdata", "list.json"), buf.Bytes())
}

func TestUnknownFormat(t *testing.T) {
	err := report.Write(&bytes.Buffer{}, "yaml", fixture(), nil)
	if err == nil || !strings.Contains(err.Error(), `"yaml"`) || !strings.Contains(err.Error(), "markdown") {
		t.Fatalf("err = %v, want one naming the format and the valid ones", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteErrorsAreReturned(t *testing.T) {
	for _, format := range report.Formats {
		if err := report.Write(failWriter{}, format, fixture(), nil); err == nil {
			t.Errorf("%s: a failing writer gave no error", format)
		}
	}
}

// What show prints for go test output with a codec on generated types
// (protobuf: marshal, unmarshal and convert) and a scenario that
// encoding/json does not round-trip (testdata/gotest-convert.txt, written
// for this test in go test's format): the recommendation counts protobuf's
// conversion and says so, and the lossy baseline is named as lossy; a
// derive refusal of two fields (one note line, the fields joined by `\n`)
// is a footnote of two lines in every document.
func TestGoldenGoTestConvert(t *testing.T) {
	doc, err := results.ReadFile(filepath.Join("testdata", "gotest-convert.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"table", "markdown"} {
		var buf bytes.Buffer
		if err := report.Write(&buf, format, doc, nil); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "gotest-convert."+format), buf.Bytes())
	}
	var buf bytes.Buffer
	if err := report.Write(&buf, "html", doc, nil); err != nil {
		t.Fatal(err)
	}
	const two = "<code class=\"lines\">derive: proto: account.Account: .Extra (interface {}): an interface has no schema\nderive: proto: account.Account: .Tags (*[]string): a pointer to a slice has no proto3 form</code>"
	if !strings.Contains(buf.String(), two) {
		t.Errorf("html: no finding with the refusal's two lines (%s)", two)
	}
}
