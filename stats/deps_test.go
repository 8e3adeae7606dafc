package stats_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPure checks that stats stays pure: nothing of serbench in its
// dependency graph, only the standard library, golang.org/x/perf and the
// statistics package x/perf itself is built on.
func TestPure(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := []string{"golang.org/x/perf/", "github.com/aclements/go-moremath/"}
	n := 0
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "github.com/serbench/serbench/stats" {
			n++
			continue
		}
		ok := false
		for _, prefix := range allowed {
			ok = ok || strings.HasPrefix(pkg, prefix)
		}
		if !ok {
			t.Errorf("stats depends on %s (allowed: the standard library and %s)", pkg, strings.Join(allowed, ", "))
		}
	}
	if n != 1 {
		t.Fatalf("go list -deps did not list stats itself:\n%s", out)
	}
}
