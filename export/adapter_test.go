package export_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/codec/stdjsonv2"
	"github.com/serbench/serbench/export"
	"github.com/serbench/serbench/scenario"
)

// The exportable codecs are those whose adapters give their Go code; this
// list fails when an adapter loses (or gains) it.
func TestSupported(t *testing.T) {
	want := []string{"cbor", "encoding/json", "go-json", "gob", "json-v2", "jsoniter", "msgpack", "segmentio-json", "sonic", "sonic/default", "sonic/fastest"}
	if stdjsonv2.Available {
		want = append(want[:2], append([]string{"encoding/json/v2"}, want[2:]...)...)
	}
	if got := export.Supported(); !slices.Equal(got, want) {
		t.Errorf("Supported() = %q, want %q", got, want)
	}
}

// Every exportable codec's calls land in bench_test.go, with its imports
// and setup, and the file is valid Go (Write formats it).
func TestWriteUsesAdapterCode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mod")
	ss, err := scenario.Select(scenario.Seeds(), []string{"ws-message"})
	if err != nil {
		t.Fatal(err)
	}
	m := export.Module{Codecs: export.Supported(), Scenarios: ss, Go: "1.26", Requires: map[string]string{},
		BenchName: func(c, s, op string) string { return c + "/" + s + "/" + op }}
	if _, err := m.Write(dir); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "bench_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range export.Supported() {
		c, _ := all.Registry().Lookup(id)
		code, ok := c.(codec.Exporter).GoCode()
		if !ok {
			t.Fatalf("%s: no Go code", id)
		}
		frags := []string{code.Marshal, code.Unmarshal}
		if code.Setup != "" {
			frags = append(frags, strings.SplitN(code.Setup, "\n", 2)[0])
		}
		for _, imp := range code.Imports {
			frags = append(frags, `"`+imp[strings.LastIndex(imp, " ")+1:]+`"`)
		}
		for _, frag := range frags {
			if !strings.Contains(string(src), frag) {
				t.Errorf("%s: bench_test.go lacks %q", id, frag)
			}
		}
	}
	if _, err := (export.Module{Codecs: []string{"protobuf"}, Scenarios: ss}).Write(filepath.Join(t.TempDir(), "x")); err == nil || !strings.Contains(err.Error(), "needs a serbench checkout") {
		t.Errorf("protobuf without Serbench: %v, want 'needs a serbench checkout'", err)
	}
	if _, err := (export.Module{Codecs: []string{"no-such-codec"}, Scenarios: ss}).Write(filepath.Join(t.TempDir(), "x")); err == nil || !strings.Contains(err.Error(), `unknown codec "no-such-codec"`) {
		t.Errorf("unknown codec: %v", err)
	}
}

// Adapter codecs: go.mod replaces serbench by the checkout, adapters_test.go
// names serbench's own scenario types and lists a cell per codec and
// scenario the codec binds to; a cell whose Bind fails is left out with the
// reason, and the library codecs' cells stay.
func TestWriteAdapterCodecs(t *testing.T) {
	seeds, err := scenario.Select(scenario.Seeds(), []string{"ws-message", "user-event"})
	if err != nil {
		t.Fatal(err)
	}
	tree := any(map[string]any{"a": 1.0})
	corpus := scenario.Scenario{ID: "corpus/tree", Value: func() any { v := tree; return &v }}
	dir := filepath.Join(t.TempDir(), "mod")
	m := export.Module{Codecs: []string{"encoding/json", "protobuf", "wire/reuse"}, Serbench: "/src/serbench",
		Scenarios: append(seeds, corpus), Go: "1.26", Requires: map[string]string{},
		BenchName: func(c, s, op string) string { return "Codec/" + c + "/" + s + "/" + op }}
	skipped, err := m.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, s := range skipped {
		left = append(left, s.Codec+" "+s.Scenario)
		if !strings.Contains(s.Err.Error(), "cannot bind corpus/tree") {
			t.Errorf("%s on %s left out: %v, want a Bind failure", s.Codec, s.Scenario, s.Err)
		}
	}
	if want := []string{"protobuf corpus/tree", "wire/reuse corpus/tree"}; !slices.Equal(left, want) {
		t.Errorf("left out %q, want %q", left, want)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\t" + export.SerbenchModule + " v0.0.0-", "replace " + export.SerbenchModule + " => /src/serbench\n"} {
		if !strings.Contains(string(mod), want) {
			t.Errorf("go.mod lacks %q:\n%s", want, mod)
		}
	}
	src, err := os.ReadFile(filepath.Join(dir, "adapters_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`sbscenario "github.com/serbench/serbench/scenario"`,
		`{"protobuf", "ws-message", func() any { return new(sbscenario.WSMessage) }},`,
		`{"wire/reuse", "user-event", func() any { return new(sbscenario.UserEvent) }},`,
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("adapters_test.go lacks %q", want)
		}
	}
	if strings.Contains(string(src), "corpus/tree") {
		t.Errorf("adapters_test.go has a cell on corpus/tree, which no adapter codec binds")
	}
	bench, err := os.ReadFile(filepath.Join(dir, "bench_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(bench), `{"encoding/json", json.Marshal, json.Unmarshal}`) || strings.Contains(string(bench), `{"protobuf",`) {
		t.Errorf("bench_test.go: want encoding/json among the library codecs and protobuf not:\n%s", bench)
	}

	// Library codecs alone: no serbench in go.mod, no serbench import.
	dir = filepath.Join(t.TempDir(), "lib")
	m.Codecs, m.Serbench = []string{"encoding/json", "gob"}, ""
	if _, err := m.Write(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"go.mod", "adapters_test.go", "bench_test.go"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), export.SerbenchModule) {
			t.Errorf("%s of a library-only module names serbench:\n%s", name, data)
		}
	}
}
