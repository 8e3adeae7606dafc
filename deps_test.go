package serbench_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The root package is what a go test user links: the default set of codecs
// (codec/defaults) and the runner, nothing the CLI alone needs and no other
// codec's library (codec/all links those). These packages must not be in
// its dependency graph at all; a path ending in "/" forbids the tree.
var forbiddenDeps = []string{
	"runtime/pprof",            // profiling: bench/profiler
	"net/http/pprof",           // profiling
	"github.com/google/pprof/", // profiling: bench/profiler
	"github.com/serbench/serbench/bench/profiler",
	"github.com/serbench/serbench/compressor/algorithms", // compression libraries: the CLI's -compress (package compressor itself is types only: bench takes its Algorithm, results.Run records its Info)
	"github.com/klauspost/compress/",                     // zstd, s2: compressor/algorithms, simdjson-go
	"github.com/golang/snappy",                           // goavro, sereal
	"github.com/pierrec/lz4/",
	"golang.org/x/sys/", // CPU pinning: internal/affinity; segmentio/asm (the standard library's vendored copy is fine)
	"github.com/serbench/serbench/internal/affinity",
	"github.com/gin-gonic/", // HTTP frameworks: load and transport
	"github.com/labstack/echo/",
	"github.com/serbench/serbench/transport",
	"github.com/serbench/serbench/load",
	"github.com/serbench/serbench/codec/all", // every codec: the user imports it to link the rest
}

// These may be in the graph only because a codec's own library imports
// them (easyjson and msgp net/http): no serbench package may import them.
var codecOnlyDeps = []string{
	"net/http",
}

func TestRootPackageDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}:{{range .Imports}} {{.}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 10 {
		t.Fatalf("go list listed %d packages", len(lines))
	}
	for _, line := range lines {
		pkg, imports, _ := strings.Cut(line, ":")
		for _, bad := range forbiddenDeps {
			if pkg == strings.TrimSuffix(bad, "/") || strings.HasPrefix(pkg, bad) || strings.HasPrefix(pkg, bad+"/") {
				t.Errorf("the root package links %s", pkg)
			}
		}
		if !strings.HasPrefix(pkg, "github.com/serbench/serbench") {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			for _, bad := range codecOnlyDeps {
				if imp == bad || strings.HasPrefix(imp, bad+"/") {
					t.Errorf("%s imports %s; only codec libraries may", pkg, imp)
				}
			}
		}
	}
}

// These packages write documents of their own and record the environment
// with package env; they must not link the runner (package bench), which
// they would only need for measuring codecs' speed.
var runnerFreePackages = []string{"hostile", "conformance", "evolve", "load", "probe"}

func TestProducersDoNotLinkRunner(t *testing.T) {
	const runner = "github.com/serbench/serbench/bench"
	args := []string{"list", "-f", "{{.ImportPath}}:{{range .Deps}} {{.}}{{end}}"}
	for _, p := range runnerFreePackages {
		args = append(args, "./"+p)
	}
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(runnerFreePackages) {
		t.Fatalf("go list listed %d packages, want %d:\n%s", len(lines), len(runnerFreePackages), out)
	}
	for _, line := range lines {
		pkg, deps, _ := strings.Cut(line, ":")
		for _, d := range strings.Fields(deps) {
			if d == runner || strings.HasPrefix(d, runner+"/") {
				t.Errorf("%s links %s", pkg, d)
			}
		}
	}
}

// Package env is what every document producer imports for its
// environment: it links the standard library only.
func TestEnvDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./env").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if got := strings.Fields(string(out)); len(got) != 1 || got[0] != "github.com/serbench/serbench/env" {
		t.Errorf("env links %q, want only itself beside the standard library", got)
	}
}

// Package report renders documents; the producers of some of them
// (probe, toolchain, plan) import report, never the other way, not even
// through another package.
func TestReportDoesNotLinkProducers(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./report").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, d := range strings.Fields(string(out)) {
		for _, p := range []string{"probe", "toolchain", "plan"} {
			if d == "github.com/serbench/serbench/"+p {
				t.Errorf("report links %s", d)
			}
		}
	}
}
