package results

import (
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"testing"
)

// TestOnlyDeriveFillsDerived checks, with the package type-checked, that
// in package results no code outside derive.go's functions assigns
// Derived or a field of it: a figure a row implies is computed in one
// place, and anything else may only clear the whole of it
// (X.Derived = Derived{}) before deriving again. The other
// packages cannot reach derive, and no exported function of results
// writes Derived after a run is built (report/readonly_test.go checks the
// readers).
func TestOnlyDeriveFillsDerived(t *testing.T) {
	bp, err := build.ImportDir(".", 0) // the files this platform builds, tests left out
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("github.com/serbench/serbench/results", fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	derived := pkg.Scope().Lookup("Derived").Type()
	// ofDerived reports whether sel names Derived or a field of it.
	ofDerived := func(sel *ast.SelectorExpr) bool {
		s, ok := info.Selections[sel]
		if !ok || s.Kind() != types.FieldVal {
			return false
		}
		v := s.Obj().(*types.Var)
		if types.Identical(v.Type(), derived) {
			return true
		}
		st := derived.Underlying().(*types.Struct)
		for i := range st.NumFields() {
			if st.Field(i) == v {
				return true
			}
		}
		return false
	}
	assigns := 0
	for _, f := range files {
		name := filepath.Base(fset.Position(f.Pos()).Filename)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				as, ok := n.(*ast.AssignStmt)
				if !ok {
					return true
				}
				for i, lhs := range as.Lhs {
					sel, ok := lhs.(*ast.SelectorExpr)
					if !ok || !ofDerived(sel) {
						continue
					}
					assigns++
					if name == "derive.go" || sel.Sel.Name == "Derived" && len(as.Rhs) == len(as.Lhs) && isEmptyDerived(as.Rhs[i]) {
						continue
					}
					t.Errorf("%s: %s assigns %s: derived figures are derive's (derive.go)", fset.Position(sel.Pos()), fn.Name.Name, sel.Sel.Name)
				}
				return true
			})
		}
	}
	if assigns < 5 {
		t.Fatalf("found %d assignments to Derived's fields: the check above looked at nothing", assigns)
	}
}

// isEmptyDerived reports whether e is the literal Derived{}.
func isEmptyDerived(e ast.Expr) bool {
	cl, ok := e.(*ast.CompositeLit)
	if !ok || len(cl.Elts) > 0 {
		return false
	}
	id, ok := cl.Type.(*ast.Ident)
	return ok && id.Name == "Derived"
}
