package export

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/serbench/serbench/scenario"
)

// A message corpus is left out with the reason; the other scenarios are
// written.
func TestWriteSkipsMessageCorpus(t *testing.T) {
	v := map[string]any{"a": 1.0}
	lines := scenario.Scenario{ID: "corpus/capture", Value: func() any { return &v },
		Messages: []scenario.Message{{Line: 1, Value: &v}, {Line: 2, Value: &v}}}
	m := Module{Codecs: []string{"encoding/json"}, Scenarios: []scenario.Scenario{lines, scenario.Seeds()[2]}, Go: "1.26",
		BenchName: func(c, s, op string) string { return c + "/" + s + "/" + op }}
	skipped, err := m.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0].Scenario != "corpus/capture" || !strings.Contains(skipped[0].Err.Error(), "message corpus (2 messages") {
		t.Errorf("skipped %+v", skipped)
	}
}

// Without Go, go.mod names this binary's Go version; Tidy's error names
// the folder.
func TestWriteDefaultsAndTidy(t *testing.T) {
	dir := t.TempDir()
	m := Module{Codecs: []string{"encoding/json"}, Scenarios: scenario.Seeds()[:1],
		BenchName: func(c, s, op string) string { return c + "/" + s + "/" + op }}
	if _, err := m.Write(dir); err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "\ngo " + strings.TrimPrefix(runtime.Version(), "go") + "\n"; !strings.Contains(string(mod), want) {
		t.Errorf("go.mod lacks %q:\n%s", want, mod)
	}
	missing := filepath.Join(dir, "missing")
	if err := Tidy(context.Background(), missing, io.Discard); err == nil || !strings.Contains(err.Error(), "go mod tidy in "+missing) {
		t.Errorf("Tidy in a missing folder: err = %v", err)
	}
}
