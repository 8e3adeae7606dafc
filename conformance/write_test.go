package conformance

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/internal/golden"
)

// fixedReport is a small report with every kind of row: counts with misses
// and outcomes, a panic, and an n/a.
func fixedReport() *Report {
	return &Report{
		Schema: Schema,
		Env: env.Env{Go: "go1.26.8", GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU", NumCPU: 2, GOMAXPROCS: 2,
			Started: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC), Modules: map[string]string{"github.com/fxamacker/cbor/v2": "v2.9.6"}},
		Rows: []Row{
			{Suite: SuiteJSON, Codec: "encoding/json", Method: "the codec's Unmarshal into *any",
				Checks:   []Check{{"y accepted", 2, 2, false}, {"n rejected", 1, 2, false}, {"i accepted", 1, 1, true}},
				Misses:   []Case{{Name: "n_array_comma_after_close.json", Check: "n rejected", Detail: "accepted"}},
				Outcomes: []Case{{Name: "i_number_huge_exp.json", Check: "i accepted", Detail: "accepted"}}},
			{Suite: SuiteJSON, Codec: "fake|pipe", Method: "the codec's Unmarshal into *any",
				Checks:   []Check{{"y accepted", 1, 2, false}, {"n rejected", 2, 2, false}, {"i accepted", 0, 1, true}},
				Misses:   []Case{{Name: "y_string_utf8.json", Check: "y accepted", Detail: "panic: boom", Panic: true}},
				Outcomes: []Case{{Name: "i_number_huge_exp.json", Check: "i accepted", Detail: "rejected: too big"}}},
			{Suite: SuiteJSON, Codec: "ffjson", NA: "no untyped decoder"},
			{Suite: SuiteCBOR, Codec: "cbor", Method: "defaults",
				Checks: []Check{{"valid decoded", 3, 3, false}, {"value as expected", 2, 3, false}, {"invalid rejected", 1, 1, false}, {"canonical re-encode", 3, 3, false}},
				Misses: []Case{{Name: "rfc8949-appendixA/mt7-simple#3 undefined", Check: "value as expected", Detail: "f7: want undefined, got null"}}},
		},
	}
}

func TestWriteGolden(t *testing.T) {
	for _, tc := range []struct {
		format  string
		verbose bool
		file    string
	}{
		{"table", false, "report.table"},
		{"table", true, "report-v.table"},
		{"markdown", true, "report-v.markdown"},
		{"json", false, "report.json"},
		{"csv", true, "report-v.csv"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, tc.format, fixedReport(), tc.verbose); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", tc.file), b.Bytes())
		})
	}
	if err := Write(&bytes.Buffer{}, "yaml", fixedReport(), false); err == nil {
		t.Error("format yaml: no error")
	}
}
