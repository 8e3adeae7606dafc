package toolchain_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/toolchain"
)

// toolchainRuns are three builds: Go 1.26 (no encoding/json/v2), Go 1.27
// (encoding/json 20% faster to unmarshal, json-v2 the same) and one whose
// build failed.
func toolchainRuns() []toolchain.Run {
	s := func(c float64) []float64 { return []float64{c * 0.98, c * 0.99, c, c, c * 1.01, c * 1.02} }
	res := func(codec, op string, ns, speedup float64) results.Row {
		return results.Row{Codec: codec, Scenario: "ws-message", Op: op, NsPerOp: ns, NsPerOpLo: ns * 0.98, NsPerOpHi: ns * 1.02,
			Derived: results.Derived{Speedup: speedup}, OK: true, Samples: s(ns), BytesPerOp: 48, AllocsPerOp: 1}
	}
	envOf := func(goVersion, engine string) env.Env {
		return env.Env{Go: goVersion, JSONEngine: engine, GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU", NumCPU: 2, GOMAXPROCS: 2}
	}
	why := "encoding/json/v2 is not in this build"
	return []toolchain.Run{
		{Spec: toolchain.Spec{Go: "go1.26.11"}, Env: envOf("go1.26.11", env.JSONEngineLegacy), Absent: map[string]string{"encoding/json/v2": why},
			Results: []results.Row{res("encoding/json", "unmarshal", 1000, 1), res("json-v2", "unmarshal", 500, 2)}},
		{Spec: toolchain.Spec{Go: "go1.27.4"}, Env: envOf("go1.27.4", env.JSONEngineV2),
			Results: []results.Row{res("encoding/json", "unmarshal", 800, 1), res("json-v2", "unmarshal", 500, 1.6), res("encoding/json/v2", "unmarshal", 450, 1.78)}},
		{Spec: toolchain.Spec{Go: "go1.99.0"}, Err: errors.New("toolchain go1.99.0: build failed: go: download go1.99.0: toolchain not available")},
	}
}

func TestToolchainsGolden(t *testing.T) {
	doc := toolchain.NewDocument(env.Env{Go: "go1.26.8", GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU"}, "encoding/json", 0, toolchainRuns())
	if doc.Base != "go1.26.11" || len(doc.Rows) != 3 {
		t.Fatalf("base %q, %d rows", doc.Base, len(doc.Rows))
	}
	ej := doc.Rows[0]
	if len(ej.Ratios) != 1 || ej.Ratios[0].Ratio != 0.8 || !ej.Ratios[0].Significant || !(ej.Ratios[0].Lo < 0.8 && ej.Ratios[0].Hi > 0.8) {
		t.Errorf("encoding/json ratio: %+v", ej.Ratios)
	}
	if v2 := doc.Rows[2]; v2.Codec != "encoding/json/v2" || v2.Cells[0].Missing == "" || len(v2.Ratios) != 0 {
		t.Errorf("encoding/json/v2 row: %+v", v2)
	}
	for _, format := range toolchain.Formats {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if err := toolchain.Write(&b, format, doc); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "toolchains."+format), b.Bytes())
		})
	}
	var b bytes.Buffer
	if err := toolchain.Write(&b, "html", doc); err == nil || !strings.Contains(err.Error(), `unknown format "html"`) {
		t.Errorf("html: %v", err)
	}
}
