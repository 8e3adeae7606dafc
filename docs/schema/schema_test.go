package schema_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/docs/schema"
)

// Every schema file compiles, and the committed example documents of the
// report, toolchain, probe and load packages (their golden files) conform.
func TestGoldenDocumentsConform(t *testing.T) {
	for _, path := range []string{
		"../../report/testdata/fixture.json",
		"../../report/testdata/adaptive.json",
		"../../report/testdata/list.json",
		"../../toolchain/testdata/toolchains.json",
		"../../probe/testdata/fidelity.json",
		"../../load/testdata/report.json",
	} {
		data, err := os.ReadFile(filepath.FromSlash(path))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(data); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
}

// The validator is not a rubber stamp: a missing field, a wrong type, an
// unknown kind and an unknown schema name are each reported.
func TestValidateRejects(t *testing.T) {
	env := `"env":{"go":"go1.26.8","goos":"linux","goarch":"amd64","cpu":"x","num_cpu":2,"gomaxprocs":2,"started":"2026-11-23T10:00:00Z","modules":{}}`
	result := `{"codec":"cbor","scenario":"ws-message","op":"marshal","ns_per_op":1,"mb_per_s":1,"bytes_per_op":1,"allocs_per_op":1,"size_bytes":1,"speedup":1,"ok":true,"error":""}`
	good := `{"schema":"serbench/v1",` + env + `,"results":[` + result + `]}`
	if err := schema.Validate([]byte(good)); err != nil {
		t.Fatalf("good document: %v", err)
	}
	for _, tc := range []struct{ name, doc, want string }{
		{"no results", strings.Replace(good, `"results"`, `"resultz"`, 1), "results"},
		{"ns_per_op a string", strings.Replace(good, `"ns_per_op":1`, `"ns_per_op":"1"`, 1), "ns_per_op"},
		{"ok with an error", strings.Replace(good, `"error":""`, `"error":"lost"`, 1), "error"},
		{"bad start time", strings.Replace(good, `2026-11-23T10:00:00Z`, `yesterday`, 1), "started"},
	} {
		err := schema.Validate([]byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one naming %q", tc.name, err, tc.want)
		}
	}
	if err := schema.Validate([]byte(`{"schema":"serbench/v9"}`)); !errors.Is(err, schema.ErrUnknownSchema) {
		t.Errorf("unknown schema: err = %v", err)
	}
}
