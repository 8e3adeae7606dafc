package results_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/serbench/serbench/"

// imports returns, for every package of the module (tests left out), the
// module packages it imports, by `go list`.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{range .Imports}} {{.}}{{end}}", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imps, _ := strings.Cut(line, ":")
		for _, imp := range strings.Fields(imps) {
			if strings.HasPrefix(imp, module) {
				m[strings.TrimPrefix(pkg, module)] = append(m[strings.TrimPrefix(pkg, module)], strings.TrimPrefix(imp, module))
			}
		}
	}
	if len(m) < 20 {
		t.Fatalf("go list gave the imports of %d packages", len(m))
	}
	return m
}

// reportImporters may import package report: the command line and the
// explorer render runs and comparisons; every other package that reads
// or builds runs imports results.
var reportImporters = []string{"cmd/serbench", "site"}

// TestReadersImportResults checks that packages that read or build runs
// import results, not report, and that results imports no package that
// produces or renders runs.
func TestReadersImportResults(t *testing.T) {
	m := imports(t)
	for pkg, imps := range m {
		if slices.Contains(imps, "report") && !slices.Contains(reportImporters, pkg) {
			t.Errorf("%s imports report: a package that reads runs imports results", pkg)
		}
	}
	for _, bad := range []string{"bench", "report", "rundoc", "plan", "archive", "site", "toolchain", "probe"} {
		if slices.Contains(m["results"], bad) {
			t.Errorf("results imports %s: the run model imports no producer or renderer of runs", bad)
		}
	}
}
