package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/probe"
)

// fixedFidelityWorld makes the fidelity output the same on every machine:
// time.Local as on a machine with TZ unset or UTC (zone name "Local",
// offset 0), since msgpack decodes times in time.Local, restored when the
// test ends. It returns a fixed environment with the given flag settings.
func fixedFidelityWorld(t *testing.T, settings []string) func(time.Time, []codec.Codec) env.Env {
	oldLocal := time.Local
	time.Local = time.FixedZone("Local", 0)
	t.Cleanup(func() { time.Local = oldLocal })
	return func(time.Time, []codec.Codec) env.Env {
		return env.Env{Go: "go1.0-test", GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU", NumCPU: 2, GOMAXPROCS: 2,
			Started: time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC), Modules: map[string]string{"github.com/vmihailenco/msgpack/v5": "v5.4.1"},
			Settings: settings}
	}
}

// fidelityGolden names the golden files of TestFidelityCommand: what
// encoding/json keeps and its error texts depend on its engine, so each
// engine has its own (fidelity-jsonv2.* from Go 1.27).
var fidelityGolden = map[string]string{env.JSONEngineLegacy: "fidelity", env.JSONEngineV2: "fidelity-jsonv2"}[env.JSONEngine]

// TestFidelityCommand writes the fidelity document of four codecs and
// seven probes in every format with a fixed environment, against the
// goldens, and checks that serbench fidelity -format json writes the same
// document apart from the environment.
func TestFidelityCommand(t *testing.T) {
	codecIDs, probeIDs := "encoding/json,msgpack,gob,protobuf", "int64-extremes,float-nan,float-negzero,string-invalid-utf8,string-html,time-zone,omitempty-pointer"
	fixed := fixedFidelityWorld(t, nil)
	codecs, err := selectCodecs(strings.Split(codecIDs, ","))
	if err != nil {
		t.Fatal(err)
	}
	probes, err := probe.Select(probe.Catalog(), strings.Split(probeIDs, ","))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := probe.NewDocument(context.Background(), codecs, probes, probe.Options{Timeout: probe.DefaultTimeout}, fixed)
	if err != nil {
		t.Fatal(err)
	}
	// The standard library's codecs report runtime.Version() as their
	// version: the goldens hold GOVERSION in its place, so they fit every
	// release of the engine's Go line.
	goVersion := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(runtime.Version()), []byte("GOVERSION")) }
	for _, format := range probe.Formats {
		t.Run(format, func(t *testing.T) {
			// The flags in effect, as serbench fidelity records them.
			doc.Env.Settings = []string{"codecs=" + codecIDs, "format=" + format, "o=", "probes=" + probeIDs, "timeout=10s"}
			var out bytes.Buffer
			if err := probe.Write(&out, format, doc); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", fidelityGolden+"."+format), goVersion(out.Bytes()))
			if format != "json" {
				return
			}
			if err := schema.Validate(out.Bytes()); err != nil {
				t.Errorf("output does not conform to docs/schema: %v", err)
			}
			var stdout, stderr bytes.Buffer
			if err := run(context.Background(), &stdout, &stderr, []string{"fidelity", "-codecs", codecIDs, "-probes", probeIDs, "-format", "json"}); err != nil {
				t.Fatal(err)
			}
			var got probe.Document
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if got.Env == nil || got.Env.Go != runtime.Version() || !slices.Equal(got.Env.Settings, doc.Env.Settings) {
				t.Errorf("serbench fidelity env %+v: want this process's, with settings %q", got.Env, doc.Env.Settings)
			}
			same := *doc
			same.Env = got.Env
			var want bytes.Buffer
			if err := probe.Write(&want, "json", &same); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(stdout.Bytes(), want.Bytes()) {
				t.Errorf("serbench fidelity -format json wrote\n%s\nwant\n%s", stdout.Bytes(), want.Bytes())
			}
		})
	}
	t.Run("-o", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "f.csv")
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), &stdout, &stderr, []string{"fidelity", "-codecs", "gob", "-probes", "float-nan", "-format", "csv", "-o", out}); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(out)
		if err != nil || !strings.HasPrefix(string(b), "codec,probe,status,path,want,got,error,note,size_bytes\ngob,float-nan,kept,") || stdout.Len() != 0 {
			t.Errorf("-o wrote %q (%v); stdout %q", b, err, stdout.String())
		}
	})
}

// Every bad flag value or argument is a usage error (exit 2).
func TestFidelityErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-probes", "nope"}, `probe: unknown probe "nope" (valid: `},
		{[]string{"-codecs", "nope"}, `unknown codec "nope"`},
		{[]string{"-format", "benchfmt"}, `unknown format "benchfmt" (valid: table, markdown, csv, json, html)`},
		{[]string{"-timeout", "0s"}, "invalid -timeout 0s (must be positive)"},
		{[]string{"extra"}, `fidelity: unexpected argument "extra"`},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, append([]string{"fidelity"}, tt.args...))
		if err == nil || !strings.Contains(err.Error(), tt.want) || exitCode(err) != 2 {
			t.Errorf("%v: err = %v (exit %d), want %q (exit 2)", tt.args, err, exitCode(err), tt.want)
		}
	}
}

// docs/fidelity.md's markers around the generated fidelity table.
const (
	fidelityBegin = "<!-- fidelity:begin (generated by go test ./cmd/serbench -run TestDocFidelity -update) -->\n"
	fidelityEnd   = "<!-- fidelity:end -->\n"
)

// TestDocFidelity runs every probe through every codec, as `serbench
// fidelity -format markdown` does, and checks that docs/fidelity.md shows that
// table between its fidelity markers; -update rewrites the block.
func TestDocFidelity(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole matrix, with about 20 child processes")
	}
	if childproc.RaceEnabled {
		// The table is generated by a normal build; under the race
		// detector the child processes run many times slower, and a deep
		// nesting that a library answers in seconds hits the 30 s limit.
		t.Skip("checks docs/fidelity.md's table against a normal build, not a -race one")
	}
	skipUnlessDocsToolchain(t) // encoding/json's error texts differ between its engines
	doc, err := probe.NewDocument(context.Background(), all.Registry().All(), probe.Catalog(), probe.Options{}, fixedFidelityWorld(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	doc.Env = nil // the table in the docs has no machine
	// json-v2 picks "cannot" or "unable to" at random once per process
	// (errorModalVerb in its errors.go, so that no one matches on the
	// text); the table shows one of them.
	for i := range doc.Cells {
		doc.Cells[i].Error = strings.Replace(doc.Cells[i].Error, "json: unable to ", "json: cannot ", 1)
	}
	var table bytes.Buffer
	if err := probe.Markdown(&table, doc); err != nil {
		t.Fatal(err)
	}
	checkDocBlock(t, "docs/fidelity.md", fidelityBegin, fidelityEnd, table.String(), "TestDocFidelity", "fidelity table")
}
