package load_test

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/load"
)

func TestHTTPReportGolden(t *testing.T) {
	best := 1188.0
	rep := load.Report{
		Schema: load.Schema,
		Env: env.Env{Go: "go1.26.8", GOOS: "linux", GOARCH: "amd64", CPU: "test CPU", NumCPU: 2, GOMAXPROCS: 2,
			Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), LoadAvg: "0.50 0.40 0.30"},
		Transport: []load.Result{},
		HTTP: []load.HTTPResult{
			{Framework: "gin", Codec: "encoding/json", Scenario: "user-event", Method: "POST", Rate: 1000, DurationS: 5, Conns: 1000,
				Requests: 5000, OK: 5000, RequestsPerS: 1000, P50Ms: 0.36, P90Ms: 0.98, P99Ms: 4.85, P999Ms: 8.65, MaxMs: 20.45,
				BytesPerResponse: 1175, BytesPerRequest: 1175, ServerRequests: 5000, ServerCPUUsPerReq: 239.8, ServerHeapBytesPerReq: 13250,
				ServerAllocsPerReq: 158.8, CPUScope: "server"},
			{Framework: "gin", Codec: "jsoniter", Scenario: "user-event", Method: "POST", Rate: best, DurationS: 2, Conns: 1000,
				Requests: 2377, OK: 2375, Errors: 2, RequestsPerS: 1187, P50Ms: 0.39, P90Ms: 1.67, P99Ms: 11.98, P999Ms: 43.52, MaxMs: 49.09,
				BytesPerResponse: 1175, BytesPerRequest: 1175, ServerRequests: 2377, ServerCPUUsPerReq: 217.2, ServerHeapBytesPerReq: 13356,
				ServerAllocsPerReq: 159.3, CPUScope: "server", SLOMs: 15, MaxRate: &best, Error: "status 0 timeout",
				Steps: []load.MaxStep{{Rate: 1000, P99Ms: 3, RequestsPerS: 1000, Pass: true}, {Rate: 2000, P99Ms: 516, RequestsPerS: 1500, Why: "p99 516ms > 15ms"}, {Rate: best, P99Ms: 11.98, RequestsPerS: 1187, Pass: true}}},
		},
	}
	fin := rep.Env.Started.Add(10 * time.Second)
	m := load.MergeReport{Schema: load.MergeSchema,
		Sources:  []load.Source{{Name: "a.json", Host: "pod-a", Started: rep.Env.Started, Finished: &fin}, {Name: "b.json", Started: rep.Env.Started.Add(2 * time.Second)}},
		Clock:    load.ClockCheck{StartSpreadMs: 2000, MaxSkewMs: 1000},
		Warnings: []string{"start times 2s apart (more than 1s): clocks offset or runs not started together", "b.json has no end time: end spread and overlap not checked"},
		Transport: []load.Result{{Transport: "ws", Codec: "msgpack", Scenario: "ws-message", Conns: 40, Rate: 17.5, Received: 2000, Sent: 2000,
			MsgsPerS: 200, P50Ms: 0.5, P99Ms: 12, WireBytesPerMsg: 60, CPUScope: "server", PeakRSSScope: "phase"}},
		HTTP: rep.HTTP[:1],
	}
	for _, tc := range []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"http.table", func(b *bytes.Buffer) error { return load.WriteTable(b, rep) }},
		{"http.json", func(b *bytes.Buffer) error { return load.WriteJSON(b, rep) }},
		{"merge.table", func(b *bytes.Buffer) error { return load.WriteMergeTable(b, m) }},
		{"merge.json", func(b *bytes.Buffer) error { return load.WriteMergeJSON(b, m) }},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", tc.file), b.Bytes())
			if filepath.Ext(tc.file) == ".json" {
				if err := schema.Validate(b.Bytes()); err != nil {
					t.Error(err)
				}
			}
		})
	}
}
