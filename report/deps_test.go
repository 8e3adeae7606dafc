package report_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportComputesNoStatistics checks that report's code uses package
// stats only for the type of an analysed field (stats.Modes), so that
// every statistic a report shows was computed before it (package results,
// package compare) and writing is only rendering.
func TestReportComputesNoStatistics(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	seen := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		seen++
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "stats" && sel.Sel.Name != "Modes" {
					t.Errorf("%s: report uses stats.%s; compute it in results or compare", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
	}
	if seen < 5 {
		t.Fatalf("read %d files of package report", seen)
	}
}
