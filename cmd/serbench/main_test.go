package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/internal/childproc"
)

// TestMain lets the tests of `serbench fidelity` and `serbench hostile`
// re-run the test binary as their child processes, as main does for the
// serbench binary.
func TestMain(m *testing.M) {
	if status, ok := childproc.Main(childRoles, os.Stderr); ok {
		os.Exit(status)
	}
	os.Exit(m.Run())
}

// serbench runs the command in-process and returns its output.
func serbench(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	err = run(context.Background(), &o, &e, args)
	return o.String(), e.String(), err
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want []string // substrings of the error
	}{
		{"no subcommand", nil, []string{"no subcommand", "run"}},
		{"unknown subcommand", []string{"bench"}, []string{`"bench"`, "list"}},
		{"unknown codec", []string{"run", "-codecs", "sonic,nope"}, []string{`"nope"`, "valid:", "msgpack"}},
		{"unknown scenario", []string{"run", "-scenarios", "ws-message,huge"}, []string{`"huge"`, "valid:", "sse-event"}},
		{"unknown format", []string{"run", "-format", "yaml"}, []string{`"yaml"`, "markdown"}},
		{"bad count", []string{"run", "-count", "0"}, []string{"-count 0", "range"}},
		{"bad benchtime", []string{"run", "-benchtime", "-1s"}, []string{"-benchtime -1s"}},
		{"stray argument", []string{"run", "extra"}, []string{`"extra"`}},
		{"unwritable -o", []string{"run", "-codecs", "encoding/json", "-scenarios", "ws-message", "-o", filepath.Join(dir, "no", "such", "dir", "r.json")}, []string{"-o", "cannot write"}},
		{"-o is a folder", []string{"run", "-o", dir}, []string{"is a directory"}},
		{"bad -gogc", []string{"run", "-gogc", "fast"}, []string{`"fast"`, "off"}},
		{"bad -pin", []string{"run", "-pin", "0,x"}, []string{`"0,x"`}},
		{"unavailable -pin", []string{"run", "-pin", "999"}, []string{"processor 999"}},
		{"bad -gomaxprocs", []string{"run", "-gomaxprocs", "-2"}, []string{"-gomaxprocs -2"}},
		{"profile folder is a file", []string{"run", "-cpuprofile", notDir}, []string{"profile folder", "not a directory"}},
		{"unreadable -corpus", []string{"run", "-corpus", filepath.Join(dir, "missing.json")}, []string{"missing.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := serbench(t, tt.args...)
			if err == nil {
				t.Fatalf("serbench %v succeeded, want an error", tt.args)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestRunJSON(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	_, _, err := serbench(t, "run", "-codecs", "msgpack,cbor", "-scenarios", "ws-message,annotation",
		"-benchtime", "1ms", "-count", "2", "-format", "json", "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schema  string
		Results []struct {
			Codec, Scenario, Op string
			NsPerOp             float64 `json:"ns_per_op"`
			OK                  bool
			Error               string
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != "serbench/v1" {
		t.Errorf("schema %q", doc.Schema)
	}
	if err := schema.Validate(b); err != nil {
		t.Errorf("output does not conform to docs/schema: %v", err)
	}
	// encoding/json is added as the baseline: 3 codecs × 2 scenarios × 2 ops.
	if len(doc.Results) != 12 {
		t.Fatalf("%d results, want 12", len(doc.Results))
	}
	for _, r := range doc.Results {
		if !r.OK || r.NsPerOp <= 0 {
			t.Errorf("%s %s %s: ok=%v ns/op=%v error=%q", r.Codec, r.Scenario, r.Op, r.OK, r.NsPerOp, r.Error)
		}
	}
}

// TestFailedRunKeepsExistingOutput checks that -o replaces a file only when
// the run succeeds.
func TestFailedRunKeepsExistingOutput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	if err := os.WriteFile(out, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := run(ctx, &bytes.Buffer{}, &bytes.Buffer{}, []string{"run", "-codecs", "encoding/json", "-scenarios", "ws-message", "-benchtime", "1ms", "-count", "1", "-o", out})
	if err == nil {
		t.Fatal("a cancelled run succeeded")
	}
	if b, _ := os.ReadFile(out); string(b) != "precious" {
		t.Errorf("existing output overwritten by a failed run: %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestList(t *testing.T) {
	out, _, err := serbench(t, "list")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"encoding/json", "sonic", "msgpack", "cbor", "gob", "sse-event", "user-profile", "*scenario.WSMessage",
		"Library status", "gogoproto: unmaintained", "ffjson: archived", "flatbuffers: pinned to 2.0.8"} {
		if !strings.Contains(out, want) {
			t.Errorf("list output lacks %q", want)
		}
	}
}

// TestListJSON checks that list -format json is a valid serbench-list/v1
// document whose default column and groups agree with codec/all, with a
// measured drop_in on the JSON codecs (dropin's tests check the classes).
func TestListJSON(t *testing.T) {
	out, _, err := serbench(t, "list", "-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate([]byte(out)); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Codecs []struct {
			ID      string   `json:"id"`
			Format  string   `json:"format"`
			Default bool     `json:"default"`
			Groups  []string `json:"groups"`
			DropIn  *struct {
				Of    string `json:"of"`
				Class string `json:"class"`
			} `json:"drop_in"`
		} `json:"codecs"`
		Groups []struct {
			Name   string   `json:"name"`
			Codecs []string `json:"codecs"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var def []string
	for _, c := range all.Registry().Default() {
		def = append(def, c.Info().ID)
	}
	var listed []string
	for _, c := range doc.Codecs {
		// The drop-in class is measured for the JSON, MessagePack and
		// CBOR codecs that decode Go values, against their reference.
		ref := map[string]string{"JSON": "encoding/json", "MessagePack": "msgpack", "CBOR": "cbor"}[c.Format]
		wantDropIn := ref != "" && c.ID != ref && c.ID != "fastjson" && c.ID != "simdjson"
		if (c.DropIn != nil) != wantDropIn || (c.DropIn != nil && c.DropIn.Of != ref) {
			t.Errorf("%s: drop_in %+v", c.ID, c.DropIn)
		}
		if c.Default != slices.Contains(c.Groups, "default") {
			t.Errorf("%s: default %v, groups %v", c.ID, c.Default, c.Groups)
		}
		if c.Default {
			listed = append(listed, c.ID)
		}
	}
	if !slices.Equal(listed, def) {
		t.Errorf("default column = %v, want %v", listed, def)
	}
	if len(doc.Groups) == 0 || doc.Groups[0].Name != "default" || !slices.Equal(doc.Groups[0].Codecs, def) {
		t.Errorf("groups = %+v", doc.Groups)
	}
	if _, _, err := serbench(t, "list", "-format", "yaml"); err == nil || !strings.Contains(err.Error(), `"yaml"`) {
		t.Errorf("-format yaml: err = %v", err)
	}
}

// TestSelectCodecs checks -codecs: no flag is the default set, groups mix
// with IDs, and an unknown name is an error naming it.
func TestSelectCodecs(t *testing.T) {
	idsOf := func(list string) string {
		t.Helper()
		v := codecsFlag(flag.NewFlagSet("run", flag.ContinueOnError), "", "", resolveRunCodecs)
		err := v.Set(list)
		var cs []codec.Codec
		if err == nil {
			cs, err = selectCodecs(v.ids)
		}
		if err != nil {
			t.Fatalf("%q: %v", list, err)
		}
		var ids []string
		for _, c := range cs {
			ids = append(ids, c.Info().ID)
		}
		return strings.Join(ids, ",")
	}
	if got, want := idsOf(""), idsOf("default"); got != want || strings.Contains(got, "gogoproto") || !strings.Contains(got, "memmove") {
		t.Errorf("no -codecs = %s, want the default set %s", got, want)
	}
	if got := idsOf("all"); strings.Count(got, ",")+1 != len(all.Registry().All()) {
		t.Errorf("all = %s", got)
	}
	if got := idsOf("wire,json"); !strings.HasPrefix(got, "wire,encoding/json,json-v2,") || strings.Contains(got, "msgpack") {
		t.Errorf("wire,json = %s", got)
	}
	if got := idsOf("msgpack"); got != "msgpack" {
		t.Errorf("msgpack = %s, want the codec alone", got)
	}
	if got := idsOf("group:msgpack"); !strings.HasPrefix(got, "msgpack,msgpack/array,msgp") || strings.Contains(got, "cbor") || strings.Contains(got, "json") {
		t.Errorf("group:msgpack = %s", got)
	}
	if err := codecsFlag(flag.NewFlagSet("run", flag.ContinueOnError), "", "", resolveRunCodecs).Set("json,nope"); err == nil || !strings.Contains(err.Error(), `unknown codec "nope"`) {
		t.Errorf("nope: err = %v", err)
	}
}

func TestHelp(t *testing.T) {
	out, _, err := serbench(t, "help")
	if err != nil || !strings.Contains(out, "run") || !strings.Contains(out, "list") {
		t.Fatalf("help: err=%v out=%q", err, out)
	}
}

func TestRunControls(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "new", "prof") // made by the run
	before := runtime.GOMAXPROCS(0)
	out, _, err := serbench(t, "run", "-codecs", "encoding/json", "-scenarios", "ws-message", "-benchtime", "1ms", "-count", "1",
		"-parallel", "-gomaxprocs", "1", "-gogc", "off", "-pin", "0", "-cpuprofile", prof, "-profiletime", "20ms", "-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOMAXPROCS(0) != before {
		t.Errorf("GOMAXPROCS not restored: %d, was %d", runtime.GOMAXPROCS(0), before)
	}
	var doc struct {
		Env struct {
			GOMAXPROCS int
			GOGC       string
			Settings   []string
		}
		Results []struct{ Parallel []struct{ Goroutines int } }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Env.GOMAXPROCS != 1 || doc.Env.GOGC != "off" || !slices.Contains(doc.Env.Settings, "pin=0") {
		t.Errorf("controls not recorded: %+v", doc.Env)
	}
	if len(doc.Results) == 0 || len(doc.Results[0].Parallel) != 1 {
		t.Errorf("parallel results: %+v", doc.Results)
	}
	if entries, _ := os.ReadDir(prof); len(entries) != 2 {
		t.Errorf("want 2 CPU profiles, got %v", entries)
	}
}

func TestVersion(t *testing.T) {
	out, _, err := serbench(t, "version")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"serbench", runtime.Version(), "github.com/bytedance/sonic", "[sonic sonic/default sonic/fastest]", "github.com/fxamacker/cbor/v2"} {
		if !strings.Contains(out, want) {
			t.Errorf("version output lacks %q:\n%s", want, out)
		}
	}
	if _, _, err := serbench(t, "version", "extra"); err == nil {
		t.Error("version with an argument: no error")
	}
}

// A command line that cannot be parsed exits 2 with its problem said once
// (by main, not also by the flag package); a failure of a well-formed
// command exits 1. A bad -format, -codecs or -o is a bad flag value in
// every subcommand that has the flag.
func TestUsageErrorsExit2(t *testing.T) {
	type usageCase struct {
		args []string
		code int
		msg  string // in the error, when set
	}
	var bad []usageCase
	for _, sc := range []string{"list", "run", "show", "compare", "conformance", "evolve", "fidelity", "hostile", "load", "merge"} {
		bad = append(bad, usageCase{[]string{sc, "-format", "yaml"}, 2, `invalid value "yaml" for flag -format: unknown format "yaml" (valid: `})
		if sc != "list" { // list has no -o
			bad = append(bad, usageCase{[]string{sc, "-o", t.TempDir()}, 2, "is a directory, not a file"}, usageCase{[]string{sc, "-o", ""}, 2, "empty file name"})
		}
	}
	for _, sc := range []string{"run", "conformance", "evolve", "fidelity", "hostile", "load"} {
		bad = append(bad, usageCase{[]string{sc, "-codecs", "wire,nope"}, 2, `invalid value "wire,nope" for flag -codecs: `})
	}
	for _, tc := range append(bad, []usageCase{
		{[]string{"run", "-bogus"}, 2, ""},
		{[]string{"run", "-count", "x"}, 2, ""},
		{[]string{"show"}, 2, ""},
		{[]string{"list", "extra"}, 2, ""},
		{[]string{"nope"}, 2, ""},
		{[]string{}, 2, ""},
		{[]string{"show", "/nonexistent/r.json"}, 1, ""},
		{[]string{"run", "-o", "/nonexistent/dir/r.json", "-quick", "-codecs", "wire", "-scenarios", "ws-message"}, 1, "cannot write there"},
	}...) {
		_, stderr, err := serbench(t, tc.args...)
		if err == nil {
			t.Errorf("%q: no error", tc.args)
			continue
		}
		if got := exitCode(err); got != tc.code {
			t.Errorf("%q: exit %d, want %d (err %v)", tc.args, got, tc.code, err)
		}
		if !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: error %q lacks %q", tc.args, err, tc.msg)
		}
		if strings.Contains(stderr, "flag provided but not defined") {
			t.Errorf("%q: the flag package reported the error too:\n%s", tc.args, stderr)
		}
	}
}
