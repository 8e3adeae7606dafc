package results_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/cbor"
	"github.com/serbench/serbench/codec/memmove"
	"github.com/serbench/serbench/codec/stdjson"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

// reportRun is one of package report's fixture runs, read from the JSON
// that report's golden test writes of it: "fixture" (two scenarios, three
// codecs, a failure, an n/a cell, parallel points) or "adaptive" (adaptive
// sampling, noise figures, speed-up intervals and per-sample allocation
// figures: three codecs on one scenario, where the fastest is not the
// smallest and one writes the baseline's bytes).
func reportRun(t testing.TB, name string) *results.Run {
	t.Helper()
	doc, err := results.ReadFile(filepath.Join("..", "report", "testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestBenchNameRoundTrip(t *testing.T) {
	for _, tc := range []struct{ codec, scenario, want string }{
		{"sonic", "sse-event", "Codec/codec=sonic/scenario=sse-event/op=marshal"},
		{"sonic/default", "corpus/twitter_status", "Codec/codec=sonic.default/scenario=corpus.twitter_status/op=marshal"},
		{"encoding/json", "corpus/my.data", "Codec/codec=encoding.json/scenario=corpus.my%2Edata/op=marshal"},
		{"a b%c", "x\ty=z", "Codec/codec=a%20b%25c/scenario=x%09y=z/op=marshal"},
		{"wire/reuse", "size/1024-2", "Codec/codec=wire.reuse/scenario=size.1024-2/op=marshal"},
		{"é/ü", "日本", "Codec/codec=é.ü/scenario=日本/op=marshal"},
	} {
		t.Run(tc.codec, func(t *testing.T) {
			got := results.BenchName(tc.codec, tc.scenario, "marshal")
			if got != tc.want {
				t.Errorf("results.BenchName = %q, want %q", got, tc.want)
			}
			for _, name := range []string{got, "Benchmark" + got + "-8"} {
				c, s, op, err := results.ParseBenchName(name)
				if err != nil || c != tc.codec || s != tc.scenario || op != "marshal" {
					t.Errorf("results.ParseBenchName(%q) = %q, %q, %q, %v", name, c, s, op, err)
				}
			}
		})
	}
}

func TestParseBenchNameErrors(t *testing.T) {
	for _, name := range []string{"BenchmarkFoo-2", "Codec/codec=x/op=marshal", "Codec/codec=x/scenario=y/op=z/positional", "Codec/codec=%zz/scenario=y/op=z", "Codec/codec=a%2/scenario=y/op=z"} {
		if _, _, _, err := results.ParseBenchName(name); err == nil {
			t.Errorf("results.ParseBenchName(%q) gave no error", name)
		}
	}
}

// TestBenchfmtParses reads Benchfmt's output back with benchfmt.Reader:
// no syntax errors, serbench names, one line per sample, the units.
func TestBenchfmtParses(t *testing.T) {
	doc := reportRun(t, "fixture")
	var buf bytes.Buffer
	if err := results.WriteBenchfmt(&buf, doc); err != nil {
		t.Fatal(err)
	}
	lines := map[string]int{}
	rd := benchfmt.NewReader(&buf, "fixture")
	units := map[string]bool{}
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Errorf("syntax error: %v", rec)
		case *benchfmt.Result:
			name := rec.Name.String()
			if !strings.HasSuffix(name, "-2") {
				t.Errorf("%s lacks the GOMAXPROCS suffix -2", name)
			}
			c, s, op, err := results.ParseBenchName(name)
			if err != nil {
				t.Fatal(err)
			}
			lines[c+" "+s+" "+op]++
			for _, v := range rec.Values {
				u := v.Unit
				if v.OrigUnit != "" {
					u = v.OrigUnit
				}
				units[u] = true
			}
			if rec.GetConfig("pkg") != results.BenchPkg || rec.GetConfig("goos") != "linux" || rec.GetConfig("github.com/bytedance/sonic") != "v1.15.5" {
				t.Errorf("config = %v", rec.Config)
			}
		case *benchfmt.UnitMetadata:
			if rec.OrigUnit != results.UnitSize {
				t.Errorf("unit metadata for %q", rec.OrigUnit)
			}
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Results {
		if got := lines[r.Codec+" "+r.Scenario+" "+r.Op]; got != len(r.Samples) {
			t.Errorf("%s %s %s: %d lines, want %d", r.Codec, r.Scenario, r.Op, got, len(r.Samples))
		}
	}
	for _, u := range []string{"ns/op", "MB/s", "B/op", "allocs/op", results.UnitSize} {
		if !units[u] {
			t.Errorf("no %s values", u)
		}
	}
}

// TestReadRoundTrip writes the fixture as JSON and as benchfmt and reads
// both back.
func TestReadRoundTrip(t *testing.T) {
	for _, format := range []string{"json", "benchfmt"} {
		t.Run(format, func(t *testing.T) {
			want := reportRun(t, "fixture")
			var buf bytes.Buffer
			write := results.WriteJSON
			if format == "benchfmt" {
				write = results.WriteBenchfmt
			}
			if err := write(&buf, want); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "results")
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := results.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Warnings) > 0 && format == "benchfmt" {
				t.Errorf("warnings: %v", got.Warnings)
			}
			if got.Env.GOOS != "linux" || got.Env.CPU != want.Env.CPU || got.Env.GOMAXPROCS != 2 || got.Env.Go != "go1.26.8" || got.Env.JSONEngine != want.Env.JSONEngine ||
				got.Env.Modules["github.com/vmihailenco/msgpack/v5"] != "v5.4.1" {
				t.Errorf("env = %+v", got.Env)
			}
			if len(got.Results) != len(want.Results) {
				t.Fatalf("%d results, want %d", len(got.Results), len(want.Results))
			}
			byKey := map[string]int{}
			for i, r := range got.Results {
				byKey[r.Codec+" "+r.Scenario+" "+r.Op] = i
			}
			for _, w := range want.Results {
				i, ok := byKey[w.Codec+" "+w.Scenario+" "+w.Op]
				if !ok {
					t.Errorf("%s %s %s missing", w.Codec, w.Scenario, w.Op)
					continue
				}
				g := got.Results[i]
				if g.OK != w.OK || g.NA != w.NA || g.Error != w.Error || len(g.Samples) != len(w.Samples) ||
					g.BytesPerOp != w.BytesPerOp || g.AllocsPerOp != w.AllocsPerOp || g.Iterations != w.Iterations {
					t.Errorf("%s %s %s:\n got %+v\nwant %+v", w.Codec, w.Scenario, w.Op, g, w)
				}
				if w.Timed() && (g.SizeBytes != w.SizeBytes || !near(g.NsPerOp, w.NsPerOp)) {
					t.Errorf("%s %s %s: ns/op %v size %d, want %v %d", w.Codec, w.Scenario, w.Op, g.NsPerOp, g.SizeBytes, w.NsPerOp, w.SizeBytes)
				}
			}
		})
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-5*math.Abs(b) }

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct{ name, input, want string }{
		{"empty", "", "not a serbench results file"},
		{"text", "hello\nworld\n", "not a serbench results file"},
		{"go test output", "goos: linux\nBenchmarkFoo-2 100 5 ns/op\n", "not a serbench results file"},
		{"other schema", `{"schema": "serbench/v9", "results": []}`, `schema "serbench/v9", want "serbench/v1"`},
		{"no schema", `{"results": []}`, `without a "schema"`},
		{"bad json", `{"schema": `, "not serbench JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := results.Read(strings.NewReader(tc.input), "in.txt")
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "in.txt") {
				t.Errorf("err = %v, want one naming in.txt and saying %q", err, tc.want)
			}
		})
	}
	if _, err := results.ReadFile(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: err = %v", err)
	}
}

func TestReadSkipsForeignBenchmarks(t *testing.T) {
	in := "BenchmarkFoo-2 100 5 ns/op\nBenchmarkCodec/codec=x/scenario=y/op=marshal 10 7 ns/op\n"
	doc, err := results.Read(strings.NewReader(in), "mixed.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Results) != 1 || len(doc.Warnings) != 1 || !strings.Contains(doc.Warnings[0], "BenchmarkFoo-2") {
		t.Errorf("results %+v warnings %q", doc.Results, doc.Warnings)
	}
	if doc.Env.GOMAXPROCS != 1 || doc.Results[0].NsPerOp != 7 {
		t.Errorf("env %+v result %+v", doc.Env, doc.Results[0])
	}
}

// FuzzRead checks that no input makes Read panic, and that whatever it
// accepts can be written again as benchfmt and read back.
func FuzzRead(f *testing.F) {
	var js, bf bytes.Buffer
	results.WriteJSON(&js, reportRun(f, "fixture"))
	results.WriteBenchfmt(&bf, reportRun(f, "fixture"))
	f.Add(js.Bytes())
	f.Add(bf.Bytes())
	f.Add([]byte("BenchmarkCodec/codec=a%/scenario=b/op=c 1 2 ns/op\n// serbench: n/a x"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := results.Read(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := results.WriteBenchfmt(&out, doc); err != nil {
			t.Fatal(err)
		}
	})
}

// A serbench load file (under its own schema or the older shared one) is
// refused with ErrTransportResults, an empty serbench/v1 document with "no
// results", never read as an empty run.
func TestReadNotARun(t *testing.T) {
	for _, doc := range []string{
		`{"schema":"serbench-load/v1","transport":[{"codec":"sonic"}]}`,
		`{"schema":"serbench/v1","transport":[{"codec":"sonic"}]}`,
	} {
		_, err := results.Read(strings.NewReader(doc), "load.json")
		if !errors.Is(err, results.ErrTransportResults) || !strings.Contains(err.Error(), "load.json") {
			t.Errorf("load file %s: err = %v", doc, err)
		}
	}
	_, err := results.Read(strings.NewReader(`{"schema":"serbench/v1","results":[]}`), "empty.json")
	if err == nil || !strings.Contains(err.Error(), "no results") {
		t.Errorf("empty run: err = %v", err)
	}
}

// go test output of package serbench (testdata/gotest-v.txt, from
// `go test -v -bench . -benchtime 100x -count 2` on a scratch module):
// names without scenario=, lossy=true, and the notes the library logs.
func TestReadGoTest(t *testing.T) {
	doc, err := results.ReadFile(filepath.Join("testdata", "gotest-v.txt"))
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ codec, scenario, op string }
	got := map[key]results.Row{}
	for _, r := range doc.Results {
		got[key{r.Codec, r.Scenario, r.Op}] = r
	}
	for _, tc := range []struct {
		key
		ok, na  bool
		samples int
		err     string
	}{
		{key{"encoding/json", "Codecs", "marshal"}, true, false, 2, ""},
		{key{"cbor", "Codecs", "unmarshal"}, true, false, 2, ""},
		{key{"protobuf", "Codecs", "marshal"}, false, true, 0, "no message for *order.Order"},
		{key{"encoding/json", "Lossy", "marshal"}, false, false, 2, "fidelity: .N: want 7 of type int64, got 7 of type float64"},
		{key{"gob", "Lossy", "unmarshal"}, true, false, 2, ""},
	} {
		r, found := got[tc.key]
		if !found {
			t.Errorf("%v: no result", tc.key)
			continue
		}
		if r.OK != tc.ok || r.NA != tc.na || len(r.Samples) != tc.samples || !strings.Contains(r.Error, tc.err) || (tc.err == "" && r.Error != "") {
			t.Errorf("%v: ok %v na %v samples %d error %q; want %v %v %d %q", tc.key, r.OK, r.NA, len(r.Samples), r.Error, tc.ok, tc.na, tc.samples, tc.err)
		}
		if tc.ok && (r.SizeBytes == 0 || r.NsPerOp == 0 || r.Speedup == 0 && tc.scenario == "Codecs") {
			t.Errorf("%v: size %d ns/op %v speed-up %v", tc.key, r.SizeBytes, r.NsPerOp, r.Speedup)
		}
	}
	if doc.Env.GOOS != "linux" || doc.Env.CPU == "" || strings.HasSuffix(doc.Env.CPU, " ") || doc.Env.GOMAXPROCS != 2 {
		t.Errorf("env %+v", doc.Env)
	}
	if len(doc.Warnings) != 0 {
		t.Errorf("warnings %q", doc.Warnings)
	}
	// Without -v go test prints no notes for skipped codecs, but a lossy
	// codec's name still says so.
	data, err := os.ReadFile(filepath.Join("testdata", "gotest-v.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var plain []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.Contains(l, "// serbench:") {
			plain = append(plain, l)
		}
	}
	doc, err = results.Read(strings.NewReader(strings.Join(plain, "\n")), "plain.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Results {
		if r.Scenario == "Lossy" && r.Codec == "encoding/json" && (r.OK || !strings.Contains(r.Error, "lossy=true")) {
			t.Errorf("lossy cell without notes: ok %v error %q", r.OK, r.Error)
		}
	}
}

// Hand-written benchmarks in the same style: one function per operation,
// codec= in the name.
func TestReadPlainCodecNames(t *testing.T) {
	in := "BenchmarkMarshal/codec=json-8 100 50 ns/op\nBenchmarkMarshal/codec=cbor-8 100 25 ns/op\n" +
		"BenchmarkUnmarshal/codec=json/size=1k-8 100 90 ns/op\nBenchmarkEncode/op=marshal/codec=x 100 9 ns/op\n"
	doc, err := results.Read(strings.NewReader(in), "plain.txt")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range doc.Results {
		got = append(got, r.Codec+" "+r.Scenario+" "+r.Op)
	}
	want := []string{"json go-test marshal", "cbor go-test marshal", "json size=1k unmarshal", "x Encode marshal"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("cells %q, want %q", got, want)
	}
}

// A run written as benchfmt and read back shows the same statistics as the
// run itself: interval, speed-up with its p-value and interval, and ×floor
// come from the same functions (package results) on the same samples.
func TestReadBenchfmtKeepsStatistics(t *testing.T) {
	codecs := []codec.Codec{stdjson.New(), cbor.New(), memmove.New()}
	ss, err := scenario.Select(scenario.Seeds(), []string{"ws-message"})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := bench.Matrix(context.Background(), codecs, ss, bench.Options{Benchtime: time.Millisecond, Count: 6})
	if err != nil {
		t.Fatal(err)
	}
	doc := results.NewRun(results.Inputs{Rows: rs, Codecs: codecs, Baseline: results.DefaultBaseline, Count: 6})
	rs = doc.Results
	var buf bytes.Buffer
	if err := results.WriteBenchfmt(&buf, doc); err != nil {
		t.Fatal(err)
	}
	got, err := results.Read(&buf, "run.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Results) != len(rs) || got.Baseline != results.DefaultBaseline {
		t.Fatalf("%d results, baseline %q", len(got.Results), got.Baseline)
	}
	for i, w := range rs {
		g := got.Results[i]
		for _, f := range []struct {
			name      string
			got, want float64
		}{
			{"ns/op", g.NsPerOp, w.NsPerOp}, {"lo", g.NsPerOpLo, w.NsPerOpLo}, {"hi", g.NsPerOpHi, w.NsPerOpHi},
			{"speed-up", g.Speedup, w.Speedup}, {"p", g.SpeedupP, w.SpeedupP},
			{"speed-up lo", g.SpeedupLo, w.SpeedupLo}, {"speed-up hi", g.SpeedupHi, w.SpeedupHi},
			{"×floor", g.FloorRatio, w.FloorRatio},
		} {
			if !near(f.got, f.want) {
				t.Errorf("%s %s: %s %v read back, %v in the run", w.Codec, w.Op, f.name, f.got, f.want)
			}
		}
		if w.FloorRatio == 0 {
			t.Errorf("%s %s: no ×floor in the run", w.Codec, w.Op)
		}
	}
}

// TestJSONContract checks the serbench/v1 field names docs/reference.md, "JSON documents" promises.
func TestJSONContract(t *testing.T) {
	var buf bytes.Buffer
	if err := results.WriteJSON(&buf, reportRun(t, "fixture")); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["schema"] != "serbench/v1" {
		t.Errorf("schema = %v", doc["schema"])
	}
	envJSON := doc["env"].(map[string]any)
	for _, k := range []string{"go", "goos", "goarch", "cpu", "num_cpu", "gomaxprocs", "started", "modules"} {
		if _, ok := envJSON[k]; !ok {
			t.Errorf("env lacks %q", k)
		}
	}
	r := doc["results"].([]any)[0].(map[string]any)
	for _, k := range []string{"codec", "scenario", "op", "ns_per_op", "mb_per_s", "bytes_per_op", "allocs_per_op", "size_bytes", "speedup", "ok", "error"} {
		if _, ok := r[k]; !ok {
			t.Errorf("result lacks %q", k)
		}
	}
}
