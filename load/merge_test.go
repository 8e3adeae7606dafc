package load_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/load"
)

func histOf(t *testing.T, values ...int64) (*hdrhistogram.Histogram, string) {
	t.Helper()
	h := hdrhistogram.New(1, int64(10*time.Minute/time.Microsecond), 3)
	for _, v := range values {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	enc, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	return h, string(enc)
}

func seq(from, n, step int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = from + int64(i)*step
	}
	return out
}

// Two machines: one fast (1-1000µs), one slow (5000-14990µs). The merged
// p99 must be the p99 of all values together, which neither run's p99 nor
// their average is.
func TestMerge(t *testing.T) {
	fast, slow := seq(1, 1000, 1), seq(5000, 1000, 10)
	all, _ := histOf(t, append(append([]int64{}, fast...), slow...)...)
	_, encFast := histOf(t, fast...)
	_, encSlow := histOf(t, slow...)
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	end := func(d time.Duration) *time.Time { e := t0.Add(d); return &e }
	rep := func(host string, start time.Duration, fin *time.Time, tr load.Result, h load.HTTPResult) load.Report {
		return load.Report{Schema: load.Schema, Env: env.Env{Started: t0.Add(start)}, Host: host, Finished: fin,
			Transport: []load.Result{tr}, HTTP: []load.HTTPResult{h}}
	}
	a := rep("a", 0, end(10*time.Second),
		load.Result{Transport: "ws", Codec: "msgpack", Scenario: "ws-message", Conns: 10, Rate: 10, Received: 1000, Sent: 1000, MsgsPerS: 100, WireBytesPerMsg: 50, ServerCPUSeconds: 2, Histogram: encFast},
		load.HTTPResult{Framework: "gin", Codec: "jsoniter", Scenario: "user-event", Method: "POST", Rate: 100, Requests: 1000, OK: 1000, RequestsPerS: 100,
			BytesPerResponse: 1175, ServerRequests: 2000, ServerCPUUsPerReq: 100, ServerHeapBytesPerReq: 1000, CPUScope: "server", Histogram: encFast})
	b := rep("b", 200*time.Millisecond, end(10*time.Second+300*time.Millisecond),
		load.Result{Transport: "ws", Codec: "msgpack", Scenario: "ws-message", Conns: 30, Rate: 20, Received: 1000, Sent: 1000, Lost: 2, MsgsPerS: 100, WireBytesPerMsg: 70, ServerCPUSeconds: 3, Histogram: encSlow},
		load.HTTPResult{Framework: "gin", Codec: "jsoniter", Scenario: "user-event", Method: "POST", Rate: 100, Requests: 1001, OK: 1000, Errors: 1, RequestsPerS: 100,
			BytesPerResponse: 1175, ServerRequests: 2000, ServerCPUUsPerReq: 200, ServerHeapBytesPerReq: 3000, CPUScope: "server", Histogram: encSlow})
	m, err := load.Merge([]load.Report{a, b}, []string{"a.json", "b.json"}, load.MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Clock.OK || len(m.Warnings) != 0 || m.Clock.StartSpreadMs != 200 || *m.Clock.EndSpreadMs != 300 || *m.Clock.OverlapS != 9.8 {
		t.Errorf("clock %+v, warnings %v", m.Clock, m.Warnings)
	}
	wantMs := func(q float64) float64 { return float64(all.ValueAtQuantile(q)) / 1e3 }
	tr := m.Transport[0]
	if len(m.Transport) != 1 || tr.Received != 2000 || tr.Sent != 2000 || tr.Lost != 2 || tr.Conns != 40 || tr.MsgsPerS != 200 {
		t.Errorf("transport counts: %+v", tr)
	}
	if tr.Rate != 17.5 || tr.WireBytesPerMsg != 60 || tr.ServerCPUSeconds != 3 {
		t.Errorf("transport rate %g (want 17.5), wire %g (want 60), cpu %g (want 3)", tr.Rate, tr.WireBytesPerMsg, tr.ServerCPUSeconds)
	}
	h := m.HTTP[0]
	if len(m.HTTP) != 1 || h.Requests != 2001 || h.OK != 2000 || h.Errors != 1 || h.RequestsPerS != 200 || h.ServerRequests != 2000 || h.ServerCPUUsPerReq != 150 || h.ServerHeapBytesPerReq != 2000 {
		t.Errorf("http: %+v", h)
	}
	for _, got := range [][5]float64{{tr.P50Ms, tr.P90Ms, tr.P99Ms, tr.P999Ms, tr.MaxMs}, {h.P50Ms, h.P90Ms, h.P99Ms, h.P999Ms, h.MaxMs}} {
		want := [5]float64{wantMs(50), wantMs(90), wantMs(99), wantMs(99.9), float64(all.Max()) / 1e3}
		if got != want {
			t.Errorf("percentiles %v, want %v (from all values together)", got, want)
		}
	}
	mh, err := load.DecodeHistogram(h.Histogram)
	if err != nil || mh.TotalCount() != 2000 {
		t.Errorf("merged histogram: %v, count %d", err, mh.TotalCount())
	}
}

func TestMergeClockWarnings(t *testing.T) {
	_, enc := histOf(t, 1, 2, 3)
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	rep := func(start, length time.Duration, withEnd bool) load.Report {
		r := load.Report{Schema: load.Schema, Env: env.Env{Started: t0.Add(start)},
			Transport: []load.Result{{Transport: "sse", Codec: "cbor", Scenario: "sse-event", Histogram: enc}}}
		if withEnd {
			e := t0.Add(start + length)
			r.Finished = &e
		}
		return r
	}
	for _, tc := range []struct {
		name string
		a, b load.Report
		want []string
	}{
		{"offset", rep(0, 10*time.Second, true), rep(3*time.Second, 10*time.Second, true), []string{"start times 3s apart", "end times 3s apart"}},
		{"disjoint", rep(0, time.Second, true), rep(5*time.Second, time.Second, true), []string{"never ran at once"}},
		{"no end", rep(0, time.Second, true), rep(0, time.Second, false), []string{"b.json has no end time"}},
	} {
		m, err := load.Merge([]load.Report{tc.a, tc.b}, []string{"a.json", "b.json"}, load.MergeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(m.Warnings, "\n")
		for _, w := range tc.want {
			if !strings.Contains(got, w) || m.Clock.OK {
				t.Errorf("%s: warnings %q, ok %v; want one containing %q", tc.name, got, m.Clock.OK, w)
			}
		}
	}
}

func TestMergeErrors(t *testing.T) {
	_, enc := histOf(t, 1)
	ok := load.Report{Schema: load.Schema, Transport: []load.Result{{Transport: "sse", Codec: "cbor", Scenario: "sse-event", Histogram: enc}}}
	old := load.Report{Schema: load.Schema, Transport: []load.Result{{Transport: "sse", Codec: "cbor", Scenario: "sse-event"}}}
	bad := load.Report{Schema: load.Schema, Transport: []load.Result{{Transport: "sse", Codec: "cbor", Scenario: "sse-event", Histogram: "bm90IGEgaGlzdG9ncmFt"}}}
	for _, tc := range []struct {
		reps []load.Report
		o    load.MergeOptions
		want string
	}{
		{[]load.Report{ok}, load.MergeOptions{}, "two reports"},
		{[]load.Report{ok, old}, load.MergeOptions{}, "old.json: sse/cbor/sse-event has no histogram"},
		{[]load.Report{ok, bad}, load.MergeOptions{}, "bad.json: sse/cbor/sse-event"},
		{[]load.Report{ok, ok}, load.MergeOptions{MaxSkew: -time.Second}, "-1s"},
	} {
		names := []string{"ok.json", "old.json"}[:len(tc.reps)]
		if tc.reps[len(tc.reps)-1].Transport[0].Histogram == "bm90IGEgaGlzdG9ncmFt" {
			names = []string{"ok.json", "bad.json"}
		}
		if _, err := load.Merge(tc.reps, names, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one containing %q", err, tc.want)
		}
	}
}

// MergeFiles reads each file and merges them; a file that is missing or
// holds no load report is named in the error.
func TestMergeFiles(t *testing.T) {
	dir := t.TempDir()
	notLoad := filepath.Join(dir, "x.json")
	if err := os.WriteFile(notLoad, []byte(`{"schema":"serbench/v1","results":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, enc := histOf(t, 1, 2, 3)
	var data bytes.Buffer
	if err := load.Write(&data, "json", load.Report{Schema: load.Schema, Transport: []load.Result{{Transport: "sse", Codec: "cbor", Scenario: "sse-event", Histogram: enc}}}); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.json")
	if err := os.WriteFile(good, data.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := load.MergeFiles([]string{good, good}, load.MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Sources) != 2 || m.Sources[1].Name != good || len(m.Transport) == 0 {
		t.Errorf("merged %d sources (%+v), %d results", len(m.Sources), m.Sources, len(m.Transport))
	}
	for _, tc := range []struct {
		paths []string
		want  string
	}{
		{[]string{good, notLoad}, "x.json"},
		{[]string{filepath.Join(dir, "missing.json"), good}, "missing.json"},
		{[]string{good}, "two reports"},
	} {
		if _, err := load.MergeFiles(tc.paths, load.MergeOptions{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want one naming %s", tc.paths, err, tc.want)
		}
	}
}
