package results_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
)

// TestReadRefusesImplausible: every reader goes through results.Read, which
// refuses a run no machine can produce with one line naming the file, the
// cell and the figure.
func TestReadRefusesImplausible(t *testing.T) {
	doc := &results.Run{Env: env.Env{Go: "go1.27.4", Started: time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)},
		Results: []results.Row{{Codec: "encoding/json", Scenario: "sse-event", Op: "marshal", NsPerOp: 100, OK: true,
			Samples: []float64{99, 100, 101}, Iterations: 10, AllocsPerOp: 2}}}
	var buf bytes.Buffer
	if err := results.WriteJSON(&buf, doc); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	if _, err := results.Read(strings.NewReader(good), "good.json"); err != nil {
		t.Fatalf("plausible run refused: %v", err)
	}
	line := "BenchmarkCodec/codec=x/scenario=sse-event/op=marshal 	 100	 "
	for _, tc := range []struct{ name, data, want string }{
		{"future.json", strings.Replace(good, "2026-11-24T08:00:00Z", "9999-12-31T00:00:00Z", 1), "env.started 9999-12-31T00:00:00Z"},
		{"negative.json", strings.Replace(good, `"ns_per_op": 100,`, `"ns_per_op": -1e308,`, 1), "ns_per_op -1e+308"},
		{"sample.json", strings.Replace(good, "101", "-5", 1), "samples -5"},
		{"allocs.json", strings.Replace(good, `"allocs_per_op": 2`, `"allocs_per_op": 9000000000000000000`, 1), "allocs_per_op 9e+18"},
		{"allocs.txt", line + "500 ns/op	 64 B/op	 1e30 allocs/op\n", "allocs/op 1e+30"},
		{"nan.txt", line + "NaN ns/op\n", "ns/op NaN"},
		{"negative.txt", line + "-3 ns/op\n", "ns/op -3"},
		{"inf.txt", line + "+Inf ns/op\n", "ns/op +Inf"},
		{"p.json", strings.Replace(good, `"speedup_p": 0,`, `"speedup_p": 1.5,`, 1), "speedup_p 1.5"},
	} {
		_, err := results.Read(strings.NewReader(tc.data), tc.name)
		if !errors.Is(err, results.ErrImplausible) || !strings.Contains(err.Error(), tc.name) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line naming the file and %q", tc.name, err, tc.want)
		}
	}
}

// TestReadRoundedP: a p-value that rounding lifted just past 1, as files
// written before stats.ClampP hold, is read as 1; one further past is not
// from any test.
func TestReadRoundedP(t *testing.T) {
	doc := &results.Run{Env: env.Env{Go: "go1.27.4", Started: time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)},
		Results: []results.Row{{Codec: "cbor", Scenario: "sse-event", Op: "marshal", NsPerOp: 100, OK: true,
			Samples: []float64{99, 100, 101}, Iterations: 10, Derived: results.Derived{Speedup: 1.01, SpeedupP: 1}}}}
	var buf bytes.Buffer
	if err := results.WriteJSON(&buf, doc); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"speedup_p": 1,`) {
		t.Fatalf("no speedup_p 1 in\n%s", buf.String())
	}
	for _, tc := range []struct {
		p    string
		want float64 // -1: refused
	}{{"1.0000000000000002", 1}, {"1.0000000000000004", 1}, {"0.9999999999999999", 0.9999999999999999}, {"1.001", -1}} {
		data := strings.Replace(buf.String(), `"speedup_p": 1,`, `"speedup_p": `+tc.p+`,`, 1)
		got, err := results.Read(strings.NewReader(data), "p.json")
		switch {
		case tc.want < 0:
			if !errors.Is(err, results.ErrImplausible) || !strings.Contains(err.Error(), "speedup_p "+tc.p) {
				t.Errorf("speedup_p %s: %v; want an implausible run naming it", tc.p, err)
			}
		case err != nil:
			t.Errorf("speedup_p %s: %v", tc.p, err)
		case got.Results[0].SpeedupP != tc.want:
			t.Errorf("speedup_p %s read as %v, want %v", tc.p, got.Results[0].SpeedupP, tc.want)
		}
	}
}

// WriteBenchfmt refuses to write a run no machine can produce, and writes
// nothing of it.
func TestBenchfmtRefusesImplausible(t *testing.T) {
	for _, r := range []results.Row{
		{Codec: "x", Scenario: "s", Op: "marshal", NsPerOp: -1, Samples: []float64{-1}, Iterations: 1, OK: true},
		{Codec: "x", Scenario: "s", Op: "marshal", NsPerOp: 1, Samples: []float64{1}, Iterations: 1, OK: true, AllocsPerOp: 1 << 62},
		{Codec: "x", Scenario: "s", Op: "marshal", NsPerOp: 1, Samples: []float64{1}, SampleAllocs: []float64{1e30}, Iterations: 1, OK: true},
	} {
		var buf bytes.Buffer
		err := results.WriteBenchfmt(&buf, &results.Run{Results: []results.Row{r}})
		if !errors.Is(err, results.ErrImplausible) || buf.Len() > 0 {
			t.Errorf("%+v: %v, wrote %d bytes; want an implausible-run error and nothing written", r, err, buf.Len())
		}
	}
}
