package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/conformance"
	"github.com/serbench/serbench/docs/schema"
)

// TestConformanceCommand runs one small suite through the command and reads
// its JSON back; the output formats themselves are golden-tested in package
// conformance, on a fixed report.
func TestConformanceCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c.json")
	var stdout, stderr bytes.Buffer
	args := []string{"conformance", "-suites", "msgpack-test-suite", "-codecs", "msgpack,encoding/json", "-format", "json", "-o", out}
	if err := run(context.Background(), &stdout, &stderr, args); err != nil {
		t.Fatal(err)
	}
	if stdout.Len() > 0 || stderr.Len() > 0 {
		t.Errorf("stdout %q, stderr %q: want both empty with -o", stdout.Bytes(), stderr.Bytes())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep conformance.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(data); err != nil {
		t.Errorf("output does not conform to docs/schema: %v", err)
	}
	if rep.Schema != conformance.Schema || len(rep.Rows) != 1 || rep.Rows[0].Codec != "msgpack" {
		t.Fatalf("schema %q, rows %+v: want one msgpack row", rep.Schema, rep.Rows)
	}
	if v := rep.Env.Modules["github.com/vmihailenco/msgpack/v5"]; v == "" {
		t.Errorf("env modules %v: no msgpack version", rep.Env.Modules)
	}
}

// Every bad flag value or argument is a usage error (exit 2).
func TestConformanceCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-format", "yaml"}, `unknown format "yaml"`},
		{[]string{"-suites", "xml"}, `unknown suite "xml"`},
		{[]string{"-codecs", "nope"}, `unknown codec "nope"`},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, append([]string{"conformance"}, tc.args...))
		if err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err) != 2 {
			t.Errorf("%v: error %v (exit %d), want %q (exit 2)", tc.args, err, exitCode(err), tc.want)
		}
	}
}
