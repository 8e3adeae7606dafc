package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/internal/golden"
)

// planArgs plans from the committed run testdata/plan-run.json (measured
// with serbench run -scenarios ws-message,corpus/events -corpus
// corpus/testdata/events.ndjson -codecs encoding/json,msgpack,protobuf
// -compress zstd,s2 -parallel), with a given transport cost, so the output
// is deterministic.
func planArgs(extra ...string) []string {
	return append([]string{"plan", "-from", filepath.Join("testdata", "plan-run.json"), "-scenarios", "ws-message,corpus/events",
		"-rate", "20000", "-fanout", "10", "-cores", "2", "-cpu-price", "0.04", "-egress-price", "0.09",
		"-transport", "2000,1,8", "-compress", "none,zstd,s2,lz4,bogus", "-p99", "1", "-egress", "20"}, extra...)
}

// The ranked table: the unknown compressor is a warning, the compressor
// the run lacks and the codec that cannot carry the JSON Lines corpus are
// rows that say why, the corpus's options all miss the egress budget (the
// closest is named), and ws-message's meet it cheapest first.
func TestPlanTable(t *testing.T) {
	out, _, err := serbench(t, planArgs()...)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "plan.table"), []byte(out))
	for _, want := range []string{
		`unknown compressor "bogus"`,
		"lz4 not measured for msgpack",
		"n/a: protobuf: not supported",
		"no option meets the budgets; the closest is",
		"options meet the budgets; cheapest: protobuf + none",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q", want)
		}
	}
}

// -format json validates against docs/schema/plan.schema.json and keeps
// the options the rows come from; -format html carries the calculator.
func TestPlanJSONAndHTML(t *testing.T) {
	out, _, err := serbench(t, planArgs("-format", "json")...)
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate([]byte(out)); err != nil {
		t.Fatalf("plan document: %v", err)
	}
	var doc struct {
		Plans []struct {
			Scenario string
			Options  []json.RawMessage
			Rows     []struct{ Codec, Compressor string }
			Met      int
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Plans) != 2 || len(doc.Plans[0].Options) != len(doc.Plans[0].Rows) || doc.Plans[1].Met != 0 {
		t.Errorf("plans %+v", doc.Plans)
	}
	html, _, err := serbench(t, planArgs("-format", "html")...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"function planCompute(", "var serbenchPlans = [", `<form class="calc"`, "<td>protobuf</td>"} {
		if !strings.Contains(html, want) {
			t.Errorf("html lacks %q", want)
		}
	}
}

// Bad input: a bad flag value is a usage error (exit 2), an answer nobody
// can give an error (exit 1); a scenario the saved run lacks is only a
// warning while another can be answered.
func TestPlanErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"plan", "-rate", "0", "-transport", "1,1,1"}, "invalid rate 0", 2},
		{[]string{"plan", "-rate", "10", "-fanout", "0", "-transport", "1,1,1"}, "invalid fanout 0", 2},
		{[]string{"plan", "-rate", "10", "-cores", "-1", "-transport", "1,1,1"}, "invalid cores -1", 2},
		{[]string{"plan", "-rate", "10", "-transport", "1,x,1"}, `invalid transport "1,x,1"`, 2},
		{[]string{"plan", "-rate", "10", "-via", "tcp"}, `unknown -via "tcp"`, 2},
		{[]string{"plan", "-rate", "10", "-verify", "1s", "-top", "0"}, "invalid top 0", 2},
		{[]string{"plan", "-rate", "5000", "-fanout", "1000", "-verify", "1s", "-transport", "1,1,1"}, "needs 10000 connections", 2},
		{[]string{"plan", "-rate", "10", "-verify", "1s", "-compress", "none,s2", "-transport", "1,1,1"}, `-verify -via sse: serve cannot apply compressor "s2" (set -compress to none or sse-gzip)`, 2},
		{[]string{"plan", "-rate", "10", "-verify", "1s", "-via", "ws", "-compress", "none,sse-gzip", "-transport", "1,1,1"}, `-verify -via ws: serve cannot apply compressor "sse-gzip" (set -compress to none or permessage-deflate)`, 2},
		{[]string{"plan", "-rate", "10", "-verify", "1s", "-compress", "permessage-deflate", "-transport", "1,1,1"}, `-verify -via sse: serve cannot apply compressor "permessage-deflate" (set -compress to none or sse-gzip)`, 2},
		{[]string{"plan", "-rate", "10", "-verify", "1s", "-via", "ws", "-compress", "gzip", "-transport", "1,1,1"}, `serve cannot apply compressor "gzip" (set -compress to none or permessage-deflate)`, 2},
		{[]string{"plan", "-rate", "10", "-format", "xml"}, `unknown format "xml"`, 2},
		{[]string{"plan", "-rate", "10", "-codecs", "nosuch"}, "nosuch", 2},
		{[]string{"plan", "-rate", "10", "-transport", "1,1,1", "-scenarios", "nosuch"}, `"nosuch"`, 2},
		{[]string{"plan", "-rate", "10", "-transport", "1,1,1", "-from", filepath.Join("testdata", "plan-run.json"), "-scenarios", "sse-event"}, "nothing can be answered: sse-event: no codec results", 1},
	} {
		_, _, err := serbench(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err) != tc.code {
			t.Errorf("%q: err = %v (exit %d), want %q (exit %d)", tc.args, err, exitCode(err), tc.want, tc.code)
		}
	}
	out, _, err := serbench(t, append(planArgs(), "-scenarios", "ws-message,sse-event")...)
	if err != nil || !strings.Contains(out, "warning: sse-event: no codec results for this scenario") {
		t.Errorf("err %v, output:\n%s", err, out)
	}
}

// Without -from, plan measures the codecs itself (one tiny run here).
func TestPlanMeasures(t *testing.T) {
	out, _, err := serbench(t, "plan", "-scenarios", "ws-message", "-codecs", "msgpack", "-compress", "s2",
		"-rate", "1000", "-transport", "1000,0.5,8", "-benchtime", "1ms", "-count", "1", "-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate([]byte(out)); err != nil {
		t.Fatal(err)
	}
	// encoding/json joins as the baseline: 2 codecs × (none, s2).
	if n := strings.Count(out, `"send_cores"`); n != 4 {
		t.Errorf("%d rows, want 4:\n%s", n, out)
	}
}

// -verify starts serve in a child process and load against it for the
// top choices without and with serve's compressor (permessage-deflate on
// WebSocket, sse-gzip on SSE, which serve must have applied): a tiny rate
// for one second, three connections sharing the stream (-fanout 3). The
// check carries measured figures at that fan-out; no timing is asserted.
func TestPlanVerify(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server for a second")
	}
	for _, tc := range []struct{ via, compressor string }{{"ws", "permessage-deflate"}, {"sse", "sse-gzip"}} {
		t.Run(tc.via, func(t *testing.T) { testPlanVerify(t, tc.via, tc.compressor) })
	}
}

func testPlanVerify(t *testing.T, via, compressor string) {
	out, _, err := serbench(t, "plan", "-scenarios", "ws-message", "-codecs", "msgpack", "-via", via,
		"-rate", "50", "-fanout", "3", "-transport", "1000,1,8", "-verify", "1s", "-top", "3", "-benchtime", "1ms", "-count", "1", "-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate([]byte(out)); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Plans []struct {
			Verify []struct {
				Codec, Compressor, Error string
				Rate                     float64
				Fanout                   int
				MeasuredCores            float64 `json:"measured_cores"`
				MeasuredRecv             float64 `json:"measured_recv_cores"`
				PredictedRecv            float64 `json:"predicted_recv_cores"`
				CodecShare               float64 `json:"codec_share"`
				MeasuredWire             float64 `json:"measured_wire_bytes"`
				PredictedWire            float64 `json:"predicted_wire_bytes"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	checks := doc.Plans[0].Verify
	ran := 0
	for _, c := range checks {
		switch {
		case c.Compressor != "none" && c.Compressor != compressor:
			t.Errorf("%s + %s: a compressor -verify did not ask for", c.Codec, c.Compressor)
		case c.Error != "":
			t.Errorf("%s: %s", c.Codec, c.Error)
		case c.MeasuredWire <= 0 || c.PredictedWire <= 0:
			t.Errorf("%s: wire predicted %g, measured %g", c.Codec, c.PredictedWire, c.MeasuredWire)
		case c.Fanout != 3 || c.MeasuredCores <= 0 || c.MeasuredRecv <= 0 || c.PredictedRecv <= 0 || c.CodecShare <= 0:
			t.Errorf("%s: fanout %d, server cores %g, receiver cores predicted %g measured %g, codec share %g", c.Codec, c.Fanout, c.MeasuredCores, c.PredictedRecv, c.MeasuredRecv, c.CodecShare)
		default:
			ran++
		}
	}
	if ran != 4 {
		t.Errorf("%d checks ran against the server, want 4 (msgpack and encoding/json, without compression and with %s): %+v", ran, compressor, checks)
	}
}

// With -corpus and no -scenarios, plan plans for the corpus's scenarios
// (it used to plan for ws-message and ignore the corpus).
func TestPlanCorpusDefault(t *testing.T) {
	path := filepath.Join(t.TempDir(), "traffic.ndjson")
	if err := os.WriteFile(path, []byte(`{"id":1,"kind":"tick","price":10.5}`+"\n"+`{"id":2,"kind":"tick","price":11}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := serbench(t, "plan", "-corpus", path, "-codecs", "msgpack", "-compress", "none",
		"-rate", "1000", "-transport", "1000,0.5,8", "-benchtime", "1ms", "-count", "1", "-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"corpus/traffic"`) || strings.Contains(out, `"ws-message"`) {
		t.Errorf("plan of -corpus without -scenarios does not plan for corpus/traffic alone:\n%s", out)
	}
}

// -verify runs a corpus document the user brought: the server child reads
// the -corpus file again and serves it (a JSON Lines file's lines in
// turn), and the load client checks what it receives against it. Before, a corpus plan was "not verified: the
// server serves only the seed scenarios and annot/*". No timing is
// asserted.
func TestPlanVerifyCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server for a second")
	}
	dir := t.TempDir()
	for name, doc := range map[string]string{
		"order.json":   `{"id":"o-17","items":[{"sku":"a1","qty":2,"price":9.5},{"sku":"b2","qty":1,"price":120}],"paid":true,"note":null}`,
		"ticks.ndjson": `{"id":1,"kind":"tick","price":10.5}` + "\n" + `{"id":2,"kind":"tick","price":11,"note":"` + strings.Repeat("a long line ", 40) + `"}` + "\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"corpus/order", "corpus/ticks"} {
		out, _, err := serbench(t, "plan", "-corpus", dir, "-scenarios", id, "-codecs", "msgpack", "-via", "ws", "-compress", "none,permessage-deflate",
			"-rate", "20", "-fanout", "2", "-transport", "1000,1,38", "-verify", "1s", "-top", "2", "-benchtime", "1ms", "-count", "1", "-format", "json")
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		var doc struct {
			Plans []struct {
				Scenario string
				Verify   []struct {
					Codec, Compressor, Error string
					MeasuredCores            float64 `json:"measured_cores"`
					MeasuredWire             float64 `json:"measured_wire_bytes"`
					PredictedWire            float64 `json:"predicted_wire_bytes"`
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Plans) != 1 || len(doc.Plans[0].Verify) != 4 {
			t.Fatalf("%s: want one plan with four checks (two codecs, with and without permessage-deflate):\n%s", id, out)
		}
		for _, c := range doc.Plans[0].Verify {
			if c.Error != "" || c.MeasuredCores <= 0 || c.MeasuredWire <= 0 {
				t.Errorf("%s, %s: error %q, server cores %g, wire %g B", id, c.Codec, c.Error, c.MeasuredCores, c.MeasuredWire)
			}
			// The server sends the lines in turn, as the plan's mean
			// size assumes (it used to send the first line only: 0.28 of
			// the prediction here), and plan compresses each line. 38 framing bytes: a WebSocket
			// message's header as load counts it.
			// 20% with compression: a compressed message of tens of
			// bytes moves with how its header's digits compress.
			tol := 0.1
			if c.Compressor != "none" {
				tol = 0.2
			}
			if r := c.MeasuredWire / c.PredictedWire; r < 1-tol || r > 1+tol {
				t.Errorf("%s, %s: wire %g B measured, %g predicted", id, c.Codec, c.MeasuredWire, c.PredictedWire)
			}
		}
	}
}
