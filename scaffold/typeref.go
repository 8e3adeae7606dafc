package scaffold

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// typePkg is the type a -type flag names, as findType resolved it from
// the package in a folder.
type typePkg struct {
	name     string // the name of the package in the folder, where the test goes
	file     string // file name of the type's declaration (in its own package's folder)
	typeName string // the type's name, without its package
	// expr is how code in the package writes the type: typeName, or
	// importName.typeName for another package's type, which the code
	// imports from importPath under importName.
	expr                   string
	importPath, importName string
	// foreign is true for a type declared in another package, named by
	// its package or as a local alias of it: a generator that adds
	// methods to a local declaration (msgp, easyjson) cannot take it.
	foreign bool
	// where says where the type is declared, for messages ("order.go",
	// "example.com/api (api.go)", "order.go, an alias of api.User").
	where    string
	fields   []string // "Name: value," lines for the sample literal; nil if not a struct
	comments []string // fields without a placeholder value
	imports  []string // extra imports the literal needs ("time")
	// composite is true when &T{...} is a valid literal (struct, array,
	// slice or map); otherwise the sample is new(T). ptr is true when a
	// placeholder is a pointer (serbenchPtr).
	composite, ptr bool
	// decl, st and timePkg are the files declaring the struct type, its
	// fields and the name its file imports package time under, which
	// findType fills fields and comments from (nil st: not a struct).
	decl    *goFiles
	st      *ast.StructType
	timePkg string
	// schemas are the derived schemas' files, relative to the package
	// (serbenchpb/order.proto), by folder; modPath is the package's import
	// path. Both are set by deriveFiles, nil and "" without a generator
	// that needs them.
	schemas map[string]string
	modPath string
}

// goFiles are the parsed non-test Go files of one folder.
type goFiles struct {
	pkg   string // the package clause; "" for no files
	files []*ast.File
	names []string // file names, as files
}

func parseDir(cmd, dir string, names []string) (*goFiles, error) {
	if names == nil {
		matches, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cmd, err)
		}
		for _, m := range matches {
			if !strings.HasSuffix(m, "_test.go") {
				names = append(names, filepath.Base(m))
			}
		}
	}
	fset := token.NewFileSet()
	g := &goFiles{}
	for _, n := range names {
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cmd, err)
		}
		g.pkg = f.Name.Name
		g.files = append(g.files, f)
		g.names = append(g.names, n)
	}
	return g, nil
}

// find returns the declaration of type name and its file's index; nil
// when there is none.
func (g *goFiles) find(name string) (*ast.TypeSpec, int) {
	for i, f := range g.files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				if ts := s.(*ast.TypeSpec); ts.Name.Name == name {
					return ts, i
				}
			}
		}
	}
	return nil, -1
}

// typeNames lists the types the files declare, sorted; only the
// exported ones when exported is true.
func (g *goFiles) typeNames(exported bool) string {
	var out []string
	for _, f := range g.files {
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				for _, s := range gd.Specs {
					if n := s.(*ast.TypeSpec).Name; !exported || n.IsExported() {
						out = append(out, n.Name)
					}
				}
			}
		}
	}
	if len(out) == 0 {
		return "none"
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// splitType splits a -type value into the package part and the type's
// name: "Order" is ("", "Order"), "api.User" is ("api", "User") and
// "example.com/x/api.User" is ("example.com/x/api", "User").
func splitType(spec string) (qual, name string) {
	slash := strings.LastIndex(spec, "/")
	dot := strings.LastIndex(spec[slash+1:], ".")
	if dot < 0 {
		return "", spec
	}
	dot += slash + 1
	return spec[:dot], spec[dot+1:]
}

// findType resolves the -type value spec from the package in dir: a type
// declared there (an alias of another package's type included), or
// pkg.Type for a package the package imports under the name pkg, or
// importpath.Type for any package the module can import (go list). Errors,
// prefixed with the subcommand cmd, one line each: no Go files in dir, a
// parse error, a package that does not resolve, no such type (naming the
// types the package does declare), an unexported or generic type.
func findType(ctx context.Context, cmd, dir, spec string) (*typePkg, error) {
	p, err := lookupType(ctx, cmd, dir, spec)
	if err != nil {
		return nil, err
	}
	if p.st != nil {
		p.fields, p.comments = p.placeholders(p.decl, p.st, p.timePkg, 0, []string{p.typeName})
	}
	return p, nil
}

// lookupType is findType without the sample's placeholders.
func lookupType(ctx context.Context, cmd, dir, spec string) (*typePkg, error) {
	here, err := parseDir(cmd, dir, nil)
	if err != nil {
		return nil, err
	}
	if here.pkg == "" {
		return nil, fmt.Errorf("%s: no Go files in %s (want the package the benchmark goes into, with at least one .go file)", cmd, dir)
	}
	qual, name := splitType(spec)
	if name == "" || !token.IsIdentifier(name) {
		return nil, fmt.Errorf("%s: -type %q: want a type name, pkg.Type or importpath.Type", cmd, spec)
	}
	if qual == "" {
		return here.typeIn(cmd, dir, name, "")
	}
	importPath := qual
	for _, f := range here.files {
		for _, im := range f.Imports {
			p := strings.Trim(im.Path.Value, `"`)
			if (im.Name != nil && im.Name.Name == qual) || (im.Name == nil && pathName(p) == qual) {
				importPath = p
			}
		}
	}
	lp, err := goList(ctx, dir, importPath)
	if err != nil {
		return nil, fmt.Errorf("%s: -type %s: %w", cmd, spec, err)
	}
	if lp.Error != nil {
		return nil, fmt.Errorf("%s: -type %s: package %s does not resolve from %s: %s", cmd, spec, importPath, dir, oneLine(lp.Error.Err))
	}
	if own, err := goList(ctx, dir, "."); err == nil && own.ImportPath == lp.ImportPath {
		return here.typeIn(cmd, dir, name, "")
	}
	there, err := parseDir(cmd, lp.Dir, lp.GoFiles)
	if err != nil {
		return nil, err
	}
	p, err := there.typeIn(cmd, lp.Dir, name, lp.ImportPath)
	if err != nil {
		return nil, err
	}
	if !token.IsExported(name) {
		return nil, fmt.Errorf("%s: %s in package %s is not exported: code in package %s cannot name it", cmd, name, lp.ImportPath, here.pkg)
	}
	p.name, p.foreign, p.importPath = here.pkg, true, lp.ImportPath
	p.importName = lp.Name
	if slices.Contains([]string{"testing", "time", "serbench", "codec", here.pkg}, p.importName) {
		p.importName = "serbench" + strings.ToUpper(lp.Name[:1]) + lp.Name[1:]
	}
	p.expr = p.importName + "." + name
	p.where = fmt.Sprintf("%s (%s)", lp.ImportPath, p.file)
	return p, nil
}

// typeIn finds type name in the files of folder dir, the package
// importPath ("" for the package the test goes into).
func (g *goFiles) typeIn(cmd, dir, name, importPath string) (*typePkg, error) {
	ts, i := g.find(name)
	if ts == nil {
		what := "package " + g.pkg + " in " + dir
		if importPath != "" {
			what = "package " + importPath
		}
		return nil, fmt.Errorf("%s: no type %s declared in %s; it declares: %s", cmd, name, what, g.typeNames(importPath != ""))
	}
	file := g.names[i]
	if ts.TypeParams != nil {
		return nil, fmt.Errorf("%s: %s in %s is generic; write the test by hand with an instance such as %s[int]", cmd, name, filepath.Join(dir, file), name)
	}
	p := &typePkg{name: g.pkg, file: file, typeName: name, expr: name, where: file}
	switch t := ts.Type.(type) {
	case *ast.StructType:
		p.composite = true
		p.decl, p.st, p.timePkg = g, t, timeImportName(g.files[i])
	case *ast.ArrayType, *ast.MapType:
		p.composite = true
	case *ast.SelectorExpr:
		if ts.Assign.IsValid() { // type T = pkg.T: an alias of another package's type
			p.foreign = true
			if x, ok := t.X.(*ast.Ident); ok {
				p.where = fmt.Sprintf("%s, an alias of %s.%s", file, x.Name, t.Sel.Name)
			}
		}
	}
	return p, nil
}

// pathName is the package name an import path usually declares: its last
// element, without a major version suffix ("v2") or a "go-" prefix.
func pathName(p string) string {
	parts := strings.Split(p, "/")
	n := parts[len(parts)-1]
	if len(parts) > 1 && len(n) > 1 && n[0] == 'v' && strings.Trim(n[1:], "0123456789") == "" {
		n = parts[len(parts)-2]
	}
	n = strings.TrimPrefix(n, "go-")
	return strings.NewReplacer("-", "", ".", "").Replace(n)
}

// listedPackage is what goList reads of go list -json.
type listedPackage struct {
	ImportPath, Name, Dir string
	GoFiles               []string
	Error                 *struct{ Err string }
}

// goList runs go list -e -json for package pattern pkg in dir.
func goList(ctx context.Context, dir, pkg string) (*listedPackage, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-json=ImportPath,Name,Dir,GoFiles,Error", pkg)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s in %s: %s", pkg, dir, oneLine(strings.TrimSpace(stderr.String())+" ("+err.Error()+")"))
	}
	var lp listedPackage
	if err := json.Unmarshal(out, &lp); err != nil {
		return nil, fmt.Errorf("go list %s in %s: %w", pkg, dir, err)
	}
	return &lp, nil
}

// oneLine joins the lines of a go command's message with "; " (a space
// after a line that ends in a colon), so that it is relayed whole on one
// line.
func oneLine(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		if b.Len() > 0 {
			if strings.HasSuffix(b.String(), ":") {
				b.WriteString(" ")
			} else {
				b.WriteString("; ")
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// spec is the -type value that names p again from the package it was
// found from: its name, or importpath.Name for another package's type.
func (p *typePkg) spec() string {
	if p.importPath != "" {
		return p.importPath + "." + p.typeName
	}
	return p.typeName
}
