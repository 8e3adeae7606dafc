package serbench_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The root package is what a go test user links: the codecs and the
// runner, nothing the CLI alone needs. These packages must not be in its
// dependency graph at all.
var forbiddenDeps = []string{
	"runtime/pprof",            // profiling: bench/profiler
	"github.com/google/pprof/", // profiling: bench/profiler
	"github.com/serbench/serbench/bench/profiler",
	"github.com/serbench/serbench/compressor/algorithms", // compression: the CLI's -compress
	"github.com/pierrec/lz4",
	"golang.org/x/sys/unix", // CPU pinning: internal/affinity
	"github.com/serbench/serbench/internal/affinity",
	"github.com/gin-gonic/", // HTTP frameworks: load and transport
	"github.com/labstack/echo",
	"github.com/serbench/serbench/transport",
	"github.com/serbench/serbench/load",
	"net/http/pprof",
}

// These may be in the graph only because a codec's own library imports
// them (simdjson-go uses zstd and s2, goavro and sereal snappy,
// segmentio/asm x/sys/cpu, easyjson and thrift net/http): no serbench
// package may import them.
var codecOnlyDeps = []string{
	"github.com/klauspost/compress",
	"github.com/golang/snappy",
	"golang.org/x/sys",
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
