package document_test

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/document"
)

func TestSchemaOf(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{`{"schema": "serbench/v1", "results": [{}]}`, document.Run, ""},
		{" \n{\"schema\": \"serbench-load/v1\", \"transport\": []}", document.Load, ""},
		{`{"schema": "serbench/v1", "transport": [{"codec": "cbor"}]}`, document.Load, ""},
		{`{"schema": "serbench/v1", "transport": [{}], "results": [{}]}`, document.Run, ""},
		{`{"schema": "serbench/v1", "results": null, "transport": []}`, document.Run, ""},
		{`{"schema": "serbench-evolve/v1"}`, document.Evolve, ""},
		{`{"schema": "other/v9"}`, "other/v9", ""},
		{`{"results": []}`, "", `without a "schema"`},
		{`{"schema": 1}`, "", "not a JSON document"},
		{`BenchmarkX 1 2 ns/op`, "", "not a JSON document"},
		{`[]`, "", "not a JSON document"},
	} {
		got, err := document.SchemaOf([]byte(tc.in))
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("SchemaOf(%s) = %q, %v; want %q, error %q", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestNamesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range document.Names {
		if seen[n] || !strings.HasPrefix(n, "serbench") || !strings.HasSuffix(n, "/v1") {
			t.Errorf("schema name %q repeated or malformed", n)
		}
		seen[n] = true
	}
}

// Every name has its JSON Schema in docs/schema, and nothing else does.
func TestNamesHaveSchemas(t *testing.T) {
	if len(schema.Files) != len(document.Names) {
		t.Errorf("docs/schema has %d files for %d names", len(schema.Files), len(document.Names))
	}
	for _, n := range document.Names {
		if schema.Files[n] == "" {
			t.Errorf("no JSON Schema for %s in docs/schema", n)
		}
	}
}
