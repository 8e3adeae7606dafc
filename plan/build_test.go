package plan

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
)

func TestOptionsValidate(t *testing.T) {
	ok := Options{Inputs: Inputs{Rate: 10, Fanout: 1, Cores: 1}, Registry: all.Registry()}
	for _, tc := range []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"defaults", func(*Options) {}, ""},
		{"rate", func(o *Options) { o.Inputs.Rate = 0 }, "invalid rate 0"},
		{"via", func(o *Options) { o.Via = "tcp" }, `unknown via "tcp"`},
		{"top", func(o *Options) { o.Verify, o.Top = time.Second, 0 }, "invalid top 0"},
		{"verify", func(o *Options) { o.Verify = -time.Second }, "invalid verify -1s"},
		{"registry", func(o *Options) { o.Registry = nil }, "no codec registry"},
		{"saved run", func(o *Options) { o.Source = "run.json" }, "no scenario"},
		{"verify fanout", func(o *Options) { o.Verify, o.Top, o.Inputs.Rate, o.Inputs.Fanout = time.Second, 1, 5000, 1000 }, "needs 10000 connections"},
		{"fanout without verify", func(o *Options) { o.Inputs.Rate, o.Inputs.Fanout = 5000, 1000 }, ""},
		{"verify gzip on sse", func(o *Options) { o.Verify, o.Top, o.Compressors = time.Second, 1, []string{None, "gzip"} }, `-via sse: serve cannot apply compressor "gzip" (set -compress to none or sse-gzip)`},
		{"verify sse-gzip on sse", func(o *Options) { o.Verify, o.Top, o.Compressors = time.Second, 1, []string{None, SSEGzip} }, ""},
		{"verify sse-gzip on ws", func(o *Options) {
			o.Verify, o.Top, o.Via, o.Compressors = time.Second, 1, "ws", []string{None, SSEGzip}
		}, `-via ws: serve cannot apply compressor "sse-gzip" (set -compress to none or permessage-deflate)`},
		{"verify deflate on sse", func(o *Options) { o.Verify, o.Top, o.Compressors = time.Second, 1, []string{PermessageDeflate} }, `compressor "permessage-deflate"`},
		{"verify zstd on ws", func(o *Options) { o.Verify, o.Top, o.Via, o.Compressors = time.Second, 1, "ws", []string{"zstd"} }, `-via ws: serve cannot apply compressor "zstd" (set -compress to none or permessage-deflate)`},
		{"verify deflate on ws", func(o *Options) {
			o.Verify, o.Top, o.Via, o.Compressors = time.Second, 1, "ws", []string{None, PermessageDeflate}
		}, ""},
		{"gzip without verify", func(o *Options) { o.Compressors = []string{"gzip", PermessageDeflate} }, ""},
	} {
		o := ok
		tc.edit(&o)
		if err := o.Validate(); (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// VerifyConns spreads the rate over streams of at most 500 msg/s, each
// with fan-out connections, and refuses more than MaxVerifyConns naming
// the flags.
func TestVerifyConns(t *testing.T) {
	for _, tc := range []struct {
		rate                float64
		fanout              int
		streams, conns      int
		wantErr, wantInText string
	}{
		{50, 1, 1, 1, "", ""},
		{500, 10, 1, 10, "", ""},
		{501, 10, 2, 20, "", ""},
		{5000, 100, 10, 1000, "", ""},
		{5000, 500, 10, 5000, "", ""},
		{5000, 501, 0, 0, "5010 connections", "-fanout"},
		{3e6, 1, 0, 0, "6000 streams", "-rate"},
	} {
		s, c, err := VerifyConns(tc.rate, tc.fanout)
		switch {
		case tc.wantErr == "" && (err != nil || s != tc.streams || c != tc.conns):
			t.Errorf("rate %g fanout %d: %d streams %d conns %v, want %d and %d", tc.rate, tc.fanout, s, c, err, tc.streams, tc.conns)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), tc.wantInText)):
			t.Errorf("rate %g fanout %d: error %v, want one with %q and %q", tc.rate, tc.fanout, err, tc.wantErr, tc.wantInText)
		}
	}
}

// The transport's cost per delivered message: (server ns per published
// message − marshal) / fan-out, never negative.
func TestPerDelivered(t *testing.T) {
	for _, tc := range []struct {
		pub, marshal float64
		fanout       int
		want         float64
	}{
		{20000, 1000, 1, 19000},
		{200000, 1000, 10, 19900},
		{500, 1000, 10, 0},
		{1000, 0, 0, 1000},
	} {
		if got := perDelivered(tc.pub, tc.marshal, tc.fanout); got != tc.want {
			t.Errorf("perDelivered(%g, %g, %d) = %g, want %g", tc.pub, tc.marshal, tc.fanout, got, tc.want)
		}
	}
}

// The transport fit: the median round of each payload and the line
// through the two; one disturbed round (a server that batched its
// writes, or a slow one) does not move it; Spread is the smaller
// payload's rounds; a negative slope or intercept is 0.
func TestFitTransport(t *testing.T) {
	for _, tc := range []struct {
		name          string
		sizes         [2]float64
		costs         [2][]float64
		msg, byteCost float64
		spread        Interval
	}{
		{"steady", [2]float64{100, 1100}, [2][]float64{{10000, 10000, 10000, 10000, 10000}, {15000, 15000, 15000, 15000, 15000}}, 9500, 5, Interval{10000, 10000, 10000}},
		{"one cheap and one dear round", [2]float64{100, 1100}, [2][]float64{{10000, 6000, 10000, 10000, 17500}, {15000, 15000, 9000, 15000, 15000}}, 9500, 5, Interval{10000, 6000, 17500}},
		{"large payload cheaper", [2]float64{100, 1100}, [2][]float64{{10000, 10000, 10000}, {9500, 9500, 9500}}, 10000, 0, Interval{10000, 10000, 10000}},
		{"slope above the small point", [2]float64{100, 200}, [2][]float64{{100, 100, 100}, {300, 300, 300}}, 0, 2, Interval{100, 100, 100}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fitTransport(tc.sizes, tc.costs)
			if math.Abs(got.NsPerMsg-tc.msg) > 1e-9 || math.Abs(got.NsPerByte-tc.byteCost) > 1e-9 {
				t.Errorf("fit = %g ns + %g ns/B, want %g + %g", got.NsPerMsg, got.NsPerByte, tc.msg, tc.byteCost)
			}
			if got.Rounds != len(tc.costs[0]) || got.SpreadBytes != tc.sizes[0] {
				t.Errorf("rounds %d, spread bytes %g", got.Rounds, got.SpreadBytes)
			}
			if got.Spread == nil || *got.Spread != tc.spread {
				t.Errorf("spread = %+v, want %+v", got.Spread, tc.spread)
			}
		})
	}
}

// The codec's share of the server's CPU: (marshal + compress) × rate over
// the measured cores.
func TestCodecShare(t *testing.T) {
	o := Option{MarshalNs: Point(800), CompressNs: Point(200)}
	// 1000 ns × 5000 msg/s = 0.005 cores of 0.05 measured: 10%.
	if got := codecShare(o, 5000, 0.05); got < 0.0999 || got > 0.1001 {
		t.Errorf("share %g, want 0.1", got)
	}
	if got := codecShare(o, 5000, 0); got != 0 {
		t.Errorf("share with no measured CPU %g, want 0", got)
	}
}

func TestParseTransport(t *testing.T) {
	got, err := ParseTransport("2000, 1.5,8,0.2")
	if want := (Transport{NsPerMsg: 2000, NsPerByte: 1.5, FrameBytes: 8, P99Ms: 0.2}); err != nil || got != want {
		t.Errorf("got %+v, %v; want %+v", got, err, want)
	}
	for _, s := range []string{"1,2", "1,2,3,4,5", "1,x,3", "1,-2,3", "1,NaN,3", "measure"} {
		if _, err := ParseTransport(s); err == nil || !strings.Contains(err.Error(), "plan: invalid transport") {
			t.Errorf("%q: %v, want an invalid transport error", s, err)
		}
	}
}

// Build plans from a saved run's results with the transport given: one
// plan per scenario that has results, a warning for the one that has none,
// an unknown compressor left out with a warning, and the environment of
// the injected Env.
func TestBuildFromResults(t *testing.T) {
	rs := []results.Row{
		{Codec: "msgpack", Scenario: "s", Op: results.OpMarshal, NsPerOp: 1000, SizeBytes: 80, OK: true},
		{Codec: "msgpack", Scenario: "s", Op: results.OpUnmarshal, NsPerOp: 2000, SizeBytes: 80, OK: true},
	}
	o := Options{Inputs: Inputs{Rate: 100, Fanout: 1, Cores: 2, Transport: Transport{NsPerMsg: 1000}},
		Source: "run.json", Results: rs, ScenarioIDs: []string{"s", "t"}, Compressors: []string{"none", "bogus"},
		Registry: all.Registry(), Env: func(_ time.Time, measured []codec.Codec) env.Env {
			return env.Env{CPU: "Test CPU", NumCPU: len(measured)}
		}}
	doc, err := Build(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Source != "run.json" || doc.TransportSource != "given" || len(doc.Plans) != 1 || doc.Plans[0].Scenario != "s" ||
		doc.Env.CPU != "Test CPU" || doc.Env.NumCPU != 0 {
		t.Fatalf("document %+v", doc)
	}
	if r := doc.Plans[0].Rows; len(r) != 1 || r[0].Codec != "msgpack" || !doc.Plans[0].Options[0].Binary {
		t.Errorf("rows %+v, options %+v: want msgpack, binary", r, doc.Plans[0].Options)
	}
	w := strings.Join(doc.Warnings, "\n")
	if !strings.Contains(w, `unknown compressor "bogus"`) || !strings.Contains(w, "t: no codec results") {
		t.Errorf("warnings %q", w)
	}
	o.ScenarioIDs = []string{"t"}
	if _, err := Build(context.Background(), o); err == nil || !strings.Contains(err.Error(), "nothing can be answered") {
		t.Errorf("no scenario answered: %v", err)
	}

	// Without Results, the Source file's are read.
	var saved bytes.Buffer
	if err := results.WriteJSON(&saved, &results.Run{Results: rs}); err != nil {
		t.Fatal(err)
	}
	o.Source, o.Results, o.ScenarioIDs = filepath.Join(t.TempDir(), "run.json"), nil, []string{"s"}
	if err := os.WriteFile(o.Source, saved.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if doc, err := Build(context.Background(), o); err != nil || len(doc.Plans) != 1 || doc.Source != o.Source {
		t.Errorf("from the Source file: %d plans, source %q, %v", len(doc.Plans), doc.Source, err)
	}
	o.Source = filepath.Join(t.TempDir(), "missing.json")
	if _, err := Build(context.Background(), o); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("a missing Source file: %v", err)
	}
}

// The table and the HTML page show the verify runs' fan-out, receiver
// cores and the codec's share of the server CPU.
func TestWriteVerify(t *testing.T) {
	in := Inputs{Rate: 1000, Fanout: 10, Cores: 2}
	opts := []Option{{Codec: "wire", Compressor: None, MarshalNs: Point(100), UnmarshalNs: Point(200), PayloadBytes: 80, SendEfficiency: 1, RecvEfficiency: 1}}
	res, err := Compute(in, opts)
	if err != nil {
		t.Fatal(err)
	}
	c := Check{Codec: "wire", Compressor: None, Rate: 1000, Achieved: 1000, Fanout: 10, PredictedCores: 0.2, MeasuredCores: 0.16,
		PredictedRecvCores: 0.002, MeasuredRecvCores: 0.15, CodecShare: 0.125, PredictedWire: 80, MeasuredWire: 81}
	doc := Document{Schema: Schema, Plans: []Plan{{Scenario: "ws-message", Options: opts, Result: res, Verify: []Check{c}}}}
	for format, want := range map[string][]string{
		"table": {"fan-out 10", "12.5", "recv cores pred"},
		"html":  {"fan-out 10", "12.5%", "receiver cores predicted"},
	} {
		var b bytes.Buffer
		if err := Write(&b, format, doc); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no %q in\n%s", format, w, b.String())
			}
		}
	}
}
