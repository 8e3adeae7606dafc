package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/results"
)

// agreeInputs are a serbench run at a 64 MiB live heap and the exported
// loops' output: sonic's unmarshal agrees, its marshal is 40% off, and
// jsoniter's marshal is only in the serbench run.
func agreeInputs() (sb, ex *results.Run) {
	s := func(c float64) []float64 { return []float64{c * 0.98, c * 0.99, c, c, c * 1.01, c * 1.02} }
	cell := func(codec, op string, ns float64) results.Row {
		return results.Row{Codec: codec, Scenario: "sse-event", Op: op, NsPerOp: ns, SizeBytes: 184, OK: true, Samples: s(ns), Iterations: 100}
	}
	sbEnv := env.Env{Go: "go1.26.8", GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU", NumCPU: 2, GOMAXPROCS: 2,
		Started: time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC), Modules: map[string]string{"github.com/bytedance/sonic": "v1.15.5"},
		LiveHeap: &env.LiveHeap{TargetBytes: 64 << 20, OwnBytes: 3 << 20, LiveHeapBytes: 64 << 20}}
	sb = results.NewRun(results.Inputs{Env: sbEnv, LiveHeap: sbEnv.LiveHeap, Count: 6, Baseline: results.DefaultBaseline, Rows: []results.Row{
		cell("encoding/json", "marshal", 1000), cell("encoding/json", "unmarshal", 2000),
		cell("sonic", "marshal", 500), cell("sonic", "unmarshal", 1000), cell("jsoniter", "marshal", 700),
	}})
	ex = results.NewRun(results.Inputs{Env: env.Env{GOMAXPROCS: 2}, Count: 6, Baseline: results.DefaultBaseline, Rows: []results.Row{
		cell("encoding/json", "marshal", 1000), cell("encoding/json", "unmarshal", 2000),
		cell("sonic", "marshal", 700), cell("sonic", "unmarshal", 1050),
	}})
	return sb, ex
}

func TestAgreeCommand(t *testing.T) {
	sbPath, exPath := filepath.Join("testdata", "agree-serbench.json"), filepath.Join("testdata", "agree-export.txt")
	if golden.Update() {
		sb, ex := agreeInputs()
		if err := writeFile(sbPath, "json", sb); err != nil {
			t.Fatal(err)
		}
		if err := writeFile(exPath, "benchfmt", ex); err != nil {
			t.Fatal(err)
		}
	}
	for _, format := range []string{"table", "markdown"} {
		t.Run(format, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if err := run(context.Background(), &stdout, &stderr, []string{"agree", "-format", format, sbPath, exPath}); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "agree."+format), stdout.Bytes())
		})
	}
	// One row per codec, the conditions side by side: here the same pair
	// twice, so both column groups hold the same figures.
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"agree", "-by-codec", "-format", "markdown", sbPath, exPath, sbPath, exPath}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "agree.by-codec"), stdout.Bytes())
}

func TestAgreeErrors(t *testing.T) {
	sbPath := filepath.Join("testdata", "agree-serbench.json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"agree", sbPath}, "want pairs of files"},
		{[]string{"agree", sbPath, sbPath, sbPath}, "want pairs of files"},
		{[]string{"agree", "-format", "html", sbPath, sbPath}, `unknown format "html"`},
		{[]string{"agree", sbPath, filepath.Join("testdata", "compare-new.txt")}, "no cell with a speed-up in common"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		}
	}
}
