package load_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/load"
)

// A load report is a file anyone may hand over: its names, errors and
// environment reach the terminal escaped, and a tab or newline in a name
// cannot open a column or a row, in show's table and in merge's.
func TestWriteTablesEscape(t *testing.T) {
	evil := "evil\x1b]52;c;cm0=\x07\x1b[2J\tcol\n| fake row"
	res := load.Result{Transport: "sse", Codec: evil, Scenario: "sse-event\x1b[31m", Conns: 1, Rate: 1,
		CPUScope: "process", Error: "load: \x1b[1mboom\nfake line", Compression: "gzip\x1b[0m"}
	rep := load.Report{Schema: load.Schema, Env: env.Env{Go: "go1.27.4", GOOS: "linux", GOARCH: "amd64", CPU: "cpu\x1b[31m"},
		Transport: []load.Result{res}}
	httpRep := load.Report{Schema: load.Schema, Env: rep.Env, HTTP: []load.HTTPResult{{Framework: "gin\x1b[2J", Codec: evil, Scenario: "s", Method: "POST"}}}
	started := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	merged := load.MergeReport{Schema: load.MergeSchema, Sources: []load.Source{{Name: "a.json\x1b[2J", Host: "host\nfake", Started: started}},
		Warnings: []string{"warn\x1b[5m\nfake"}, Transport: []load.Result{res}}
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"load table", func(b *bytes.Buffer) error { return load.WriteTable(b, rep) }},
		{"http table", func(b *bytes.Buffer) error { return load.WriteTable(b, httpRep) }},
		{"merge table", func(b *bytes.Buffer) error { return load.WriteMergeTable(b, merged) }},
	} {
		var b bytes.Buffer
		if err := tc.write(&b); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		out := b.String()
		if strings.ContainsAny(out, "\x1b\x07\t") || !strings.Contains(out, `evil\x1b]52;c;cm0=\x07\x1b[2J\x09col\x0a| fake row`) {
			t.Errorf("%s: control characters reach the terminal, or the name is not shown escaped:\n%q", tc.name, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "| fake row") || strings.HasPrefix(line, "fake") {
				t.Errorf("%s: a newline in the report makes a line of its own:\n%s", tc.name, out)
			}
		}
	}
}
