package export

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
)

// AgreeFiles pairs a serbench run with the exported loops' output, cell
// by cell, labelled by the run's live heap; an odd count of files or a
// pair with nothing in common is an error.
func TestAgreeFiles(t *testing.T) {
	dir := t.TempDir()
	cell := func(codec, op string, ns float64) results.Row {
		return results.Row{Codec: codec, Scenario: "sse-event", Op: op, NsPerOp: ns, OK: true, Samples: []float64{ns, ns, ns}, Iterations: 100}
	}
	write := func(name string, doc *results.Run) string {
		doc = results.NewRun(results.Inputs{Env: doc.Env, LiveHeap: doc.Env.LiveHeap, Rows: doc.Results, Baseline: results.DefaultBaseline})
		var data bytes.Buffer
		path := filepath.Join(dir, name)
		if err := errors.Join(results.WriteJSON(&data, doc), os.WriteFile(path, data.Bytes(), 0o644)); err != nil {
			t.Fatal(err)
		}
		return path
	}
	sb := write("sb.json", &results.Run{Env: env.Env{Go: "go1.27.4", LiveHeap: &env.LiveHeap{TargetBytes: 64 << 20}}, Results: []results.Row{
		cell("encoding/json", "marshal", 1000), cell("sonic", "marshal", 500), cell("jsoniter", "marshal", 700)}})
	ex := write("ex.json", &results.Run{Results: []results.Row{cell("encoding/json", "marshal", 1000), cell("sonic", "marshal", 400)}})
	other := write("other.json", &results.Run{Results: []results.Row{cell("encoding/json", "marshal", 1000), cell("cbor", "marshal", 400)}})

	conds, err := AgreeFiles([]string{sb, ex})
	if err != nil {
		t.Fatal(err)
	}
	if len(conds) != 1 || conds[0].Label != "live-heap=64MiB" || len(conds[0].Cells) != 1 {
		t.Fatalf("conditions = %+v, want one at live-heap=64MiB with sonic's marshal", conds)
	}
	if c := conds[0].Cells[0]; c.Codec != "sonic" || c.Serbench != 2 || c.Export != 2.5 {
		t.Errorf("cell = %+v, want sonic at 2× in serbench and 2.5× in the loops", c)
	}
	for _, tc := range []struct {
		paths []string
		want  string
	}{
		{[]string{sb}, "pairs of files"},
		{[]string{sb, other}, "no cell with a speed-up in common"},
		{[]string{sb, filepath.Join(dir, "missing.json")}, "missing.json"},
	} {
		if _, err := AgreeFiles(tc.paths); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q", tc.paths, err, tc.want)
		}
	}
}
