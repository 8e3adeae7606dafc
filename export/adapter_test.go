package export_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/export"
	"github.com/serbench/serbench/scenario"
)

// The exportable codecs are those whose adapters give their Go code; this
// list fails when an adapter loses (or gains) it.
func TestSupported(t *testing.T) {
	want := []string{"cbor", "encoding/json", "go-json", "json-v2", "jsoniter", "msgpack", "segmentio-json", "sonic", "sonic/default", "sonic/fastest"}
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
	if _, err := (export.Module{Codecs: []string{"protobuf"}, Scenarios: ss}).Write(filepath.Join(t.TempDir(), "x")); err == nil || !strings.Contains(err.Error(), "cannot be exported") {
		t.Errorf("protobuf: %v, want cannot be exported", err)
	}
}
