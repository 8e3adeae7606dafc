package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/serbench/serbench/results"
)

// TestExportRuns writes the module for four codecs (two of them adapter
// codecs) on two scenarios and runs
// its benchmarks for a few iterations with the go command: the names it
// prints must be serbench's cell names. The module's dependencies come from
// the module cache or the module proxy (a test binary links test-only
// modules, which the exported go.mod then requires, and go mod tidy
// wants theirs too); when neither has them the test is skipped.
func TestExportRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a Go module (-short)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	// cbor is a library codec; wire and easyjson are adapter codecs, whose
	// serbench code is this checkout (found from the test's folder).
	err := cmdExport(context.Background(), &stdout, &stderr, []string{"-o", dir, "-codecs", "cbor,wire,easyjson", "-scenarios", "ws-message,annot/coo@small"})
	if err != nil {
		if strings.Contains(err.Error(), "go mod tidy") {
			t.Skipf("module cache and proxy lack a dependency: %v\n%s", err, stderr.String())
		}
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", ".", "-benchtime", "10x")
	cmd.Dir = dir
	// The GC condition from the environment: the ballast raises the live
	// heap to 8 MiB and the benchmark logs it.
	cmd.Env = append(os.Environ(), "SERBENCH_LIVE_HEAP=8MiB")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test in the exported module: %v\n%s", err, out)
	}
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+[\d.]+ ns/op`).FindAllStringSubmatch(string(out), -1) {
		c, s, op, err := results.ParseBenchName(m[1])
		if err != nil {
			t.Errorf("exported benchmark %q is not a serbench cell name: %v", m[1], err)
			continue
		}
		seen[c+" "+s+" "+op] = true
	}
	if !strings.Contains(string(out), "target 8388608)") {
		t.Errorf("no live heap of 8 MiB logged in:\n%s", out)
	}
	for _, want := range []string{"encoding/json ws-message marshal", "encoding/json ws-message unmarshal", "cbor ws-message marshal", "cbor ws-message unmarshal",
		// An opt-in annotation workload, selected by ID as in run.
		"cbor annot/coo@small marshal", "encoding/json annot/coo@small unmarshal",
		"wire ws-message marshal", "wire ws-message unmarshal", "easyjson ws-message marshal", "easyjson annot/coo@small unmarshal"} {
		if !seen[want] {
			t.Errorf("no benchmark for %s in:\n%s", want, out)
		}
	}
}

func TestExportRefusesNonEmptyFolder(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := cmdExport(context.Background(), &stdout, &stderr, []string{"-o", dir + "/..", "-tidy=false"}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("export into a non-empty folder: %v, want a 'not empty' error", err)
	}
	// An adapter codec with a -serbench folder that is no serbench checkout.
	if err := cmdExport(context.Background(), &stdout, &stderr, []string{"-o", t.TempDir(), "-codecs", "protobuf", "-serbench", t.TempDir(), "-tidy=false"}); err == nil || !strings.Contains(err.Error(), "no serbench checkout") {
		t.Errorf("export of a codegen codec with a folder that is not serbench: %v, want 'no serbench checkout'", err)
	}
}
