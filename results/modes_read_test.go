package results_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/stats"
)

// TestModesReadBack checks that reading a document whose rows lack Modes
// (one written before serbench detected them) derives them from the
// samples, in both formats Read takes. msgpack's 12 samples alternate
// between 8.2 and 14.5 µs (a sibling hyperthread busy half the time),
// encoding/json's spread 2% around 20 µs.
func TestModesReadBack(t *testing.T) {
	two := []float64{8271, 14535, 8190, 14610, 8305, 14402, 8250, 8330, 14488, 14560, 8212, 14390}
	var one []float64
	for i := range 12 {
		one = append(one, 20000*(1+0.02*float64(i%5-2)/2))
	}
	// A run assembled by hand, not built: no row has Modes.
	doc := &results.Run{Schema: results.Schema, Env: testEnv(), Baseline: "encoding/json", Count: 12,
		Results: []results.Row{testRow("encoding/json", "marshal", one, 184, 0), testRow("msgpack", "marshal", two, 184, 0)}}
	for format, write := range map[string]func(*bytes.Buffer) error{
		"json":     func(b *bytes.Buffer) error { return results.WriteJSON(b, doc) },
		"benchfmt": func(b *bytes.Buffer) error { return results.WriteBenchfmt(b, doc) },
	} {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := write(&buf); err != nil {
				t.Fatal(err)
			}
			if format == "json" && strings.Contains(buf.String(), `"modes"`) {
				t.Fatal("the document written already has modes")
			}
			got, err := results.Read(&buf, "modes."+format)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range got.Results {
				switch r.Codec {
				case "msgpack":
					if g := r.Modes; g == nil || g.FastNs != 8260.5 || g.SlowNs != 14511.5 || g.SlowShare != 0.5 {
						t.Errorf("msgpack: Modes = %+v, want fast 8260.5 ns, slow 14511.5 ns, half the samples", g)
					}
				default:
					if r.Modes != nil {
						t.Errorf("%s: Modes = %+v, want none", r.Codec, *r.Modes)
					}
				}
			}
		})
	}
}

// testRow is a timed cell of scenario "s" with samples ns, encoded size
// size and compressed size compressed, summarised as the runner does.
func testRow(codec, op string, ns []float64, size, compressed int) results.Row {
	r := results.Row{Codec: codec, Scenario: "s", Op: op, SizeBytes: size, CompressedBytes: compressed, OK: true, Samples: ns, Iterations: 10}
	r.NsPerOp, r.NsPerOpLo, r.NsPerOpHi = stats.Summarize(ns)
	return r
}

// testEnv is a fixed environment of a test run.
func testEnv() env.Env {
	return env.Env{Go: "go1.26.8", GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU", NumCPU: 2, GOMAXPROCS: 2,
		Started: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)}
}
