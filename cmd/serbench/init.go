package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/template"

	"github.com/serbench/serbench/derive"
)

func init() {
	register("init", "write a starter serbench_test.go that benchmarks your own Go type", cmdInit)
}

// InitFile is the file serbench init writes into the package.
const InitFile = "serbench_test.go"

// generator is a code generator serbench init can wire up for the user's
// type: a go.mod tool directive, a //go:generate line and the adapter.
type generator struct {
	module  string // module path, for go get -tool
	tool    string // package path of the command, as `go tool` names it
	version string // pinned version: the one serbench itself is built and tested with (go.mod)
	// generate is the //go:generate command for the file that holds the
	// type; %[1]s is that file's name, %[2]s the name without ".go".
	generate string
	adapter  string // serbench.Options.Extra entry; %s is the type name
	// schema is the derived schema's format for a generator that works
	// from a schema (protoc-gen-go): init writes it under schemaDir, and
	// generate's %[3]s is its file, %[4]s the import path of schemaDir.
	schema derive.Format
	// binary is the program the generate line runs besides the go tool,
	// with how to install it; "" for none.
	binary, install string
	// needs is a generator this one adds code onto ("" for none).
	needs string
}

// schemaDir is the folder, inside the user's package, of the schemas
// init derives and of the code generated from them (package serbenchpb).
const schemaDir = "serbenchpb"

// generators are the -codegen choices. The versions are those of
// serbench's own go.mod (TestInitVersionsMatchGoMod keeps them in step).
var generators = map[string]generator{
	"msgp": {module: "github.com/tinylib/msgp", tool: "github.com/tinylib/msgp", version: "v1.6.5",
		generate: "go tool msgp -file %[1]s -o %[2]s_msgp.go -io=false -tests=false",
		adapter:  "serbench.Msgp[%s]()"},
	"easyjson": {module: "github.com/mailru/easyjson", tool: "github.com/mailru/easyjson/easyjson", version: "v0.9.2",
		generate: "go tool easyjson -all -no_std_marshalers -output_filename %[2]s_easyjson.go %[1]s",
		adapter:  "serbench.EasyJSON[%s]()"},
	"protobuf": {module: "google.golang.org/protobuf", tool: "google.golang.org/protobuf/cmd/protoc-gen-go", version: "v1.36.12",
		generate: `sh -c "protoc --plugin=protoc-gen-go=$(go tool -n protoc-gen-go) --go_out=. --go_opt=paths=source_relative --go_opt=M%[3]s=%[4]s %[3]s"`,
		adapter:  "serbench.ProtoDerived[%[1]s, *" + schemaDir + ".%[1]s]()",
		schema:   derive.Proto, binary: "protoc",
		install: protocInstall},
	"vtprotobuf": {module: "github.com/planetscale/vtprotobuf", tool: "github.com/planetscale/vtprotobuf/cmd/protoc-gen-go-vtproto", version: "v0.6.0",
		generate: `sh -c "protoc --plugin=protoc-gen-go-vtproto=$(go tool -n protoc-gen-go-vtproto) --go-vtproto_out=. --go-vtproto_opt=paths=source_relative,features=marshal+unmarshal+size --go-vtproto_opt=M%[3]s=%[4]s %[3]s"`,
		adapter:  "serbench.VTProtoDerived[%[1]s, *" + schemaDir + ".%[1]s]()",
		schema:   derive.Proto, binary: "protoc", install: protocInstall, needs: "protobuf"},
}

const protocInstall = "apt-get install protobuf-compiler, brew install protobuf, or a release from https://github.com/protocolbuffers/protobuf/releases"

func generatorNames() string {
	names := make([]string, 0, len(generators))
	for n := range generators {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func cmdInit(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		typeName = fs.String("type", "", "the Go type to benchmark, declared in the package in -dir (required)")
		codegen  = fs.String("codegen", "", "comma-separated code generators to add for the type: "+generatorNames()+" (protobuf: from the schema serbench derives from the type, written under "+schemaDir+"/)")
		dir      = fs.String("dir", ".", "the package's folder")
		get      = fs.Bool("get", false, "run the go get -tool commands that pin the generators in go.mod, instead of printing them")
	)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench init -type NAME [-codegen msgp,easyjson,protobuf] [-dir DIR] [-get]")
		fmt.Fprintf(stderr, "Writes %s into the package in DIR: a benchmark and a fidelity check of\n", InitFile)
		fmt.Fprintln(stderr, "NAME across serbench's default set of codecs, using package github.com/serbench/serbench.")
		fmt.Fprintln(stderr, "An existing file is never overwritten.")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	if *typeName == "" {
		return errors.New("init: -type is required (the name of your Go type)")
	}
	var gens []string
	for _, g := range strings.Split(*codegen, ",") {
		if g = strings.TrimSpace(g); g == "" {
			continue
		}
		if _, ok := generators[g]; !ok {
			return fmt.Errorf("init: unknown generator %q in -codegen (valid: %s)", g, generatorNames())
		}
		gens = append(gens, g)
	}
	for _, g := range gens {
		if n := generators[g].needs; n != "" && !slices.Contains(gens, n) {
			return usagef("init: -codegen %s adds methods onto the code of %s: name both (-codegen %s,%s)", g, n, n, g)
		}
	}
	pkg, err := findType("init", *dir, *typeName)
	if err != nil {
		return err
	}
	path := filepath.Join(*dir, InitFile)
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("init: %s already exists; nothing was written (remove or rename it to start again)", path)
	}
	schemas, err := deriveSchemas(ctx, *dir, pkg, gens)
	if err != nil {
		return err
	}
	src, err := initSource(pkg, gens)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("init: %s already exists; nothing was written (remove or rename it to start again)", path)
	}
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	if _, err := f.Write(src); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("init: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return fmt.Errorf("init: write %s: %w", path, err)
	}
	for _, sc := range schemas {
		if err := writeNew(sc.path, sc.text); err != nil {
			os.Remove(path)
			return fmt.Errorf("init: %w; %s was removed again", err, path)
		}
		fmt.Fprintf(stdout, "wrote %s (the %s schema derived from %s, lossy mappings as comments)\n", sc.path, sc.format, *typeName)
	}
	fmt.Fprintf(stdout, "wrote %s (%s %s in %s)\n", path, pkg.name, *typeName, pkg.file)
	var gets [][]string
	for _, g := range gens {
		gen := generators[g]
		gets = append(gets, []string{"go", "get", "-tool", gen.tool + "@" + gen.version})
	}
	fmt.Fprintln(stdout, "next, in", *dir+":")
	step := 1
	if !hasRequire(*dir, "github.com/serbench/serbench") {
		fmt.Fprintf(stdout, "  %d. go get github.com/serbench/serbench\n", step)
		step++
	}
	for _, args := range gets {
		if *get {
			cmd := exec.CommandContext(ctx, args[0], args[1:]...)
			cmd.Dir = *dir
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("init: %s: %w\n%s", strings.Join(args, " "), err, out)
			}
			fmt.Fprintf(stdout, "  (ran %s: the generator is pinned in go.mod as a tool directive)\n", strings.Join(args, " "))
			continue
		}
		fmt.Fprintf(stdout, "  %d. %s   (pins the generator in go.mod as a tool directive)\n", step, strings.Join(args, " "))
		step++
	}
	if len(gens) > 0 {
		fmt.Fprintf(stdout, "  %d. go generate   (runs the //go:generate lines in %s)\n", step, InitFile)
		step++
	}
	fmt.Fprintf(stdout, "  %d. go mod tidy   (records what the test imports in go.sum)\n", step)
	fmt.Fprintf(stdout, "  %d. go test -run TestCodecs -v   (which codecs round-trip %s)\n", step+1, *typeName)
	fmt.Fprintf(stdout, "  %d. go test -run '^$' -bench Codecs -count 6 > new.txt && serbench show new.txt\n", step+2)
	return nil
}

// derivedSchema is a schema file init writes for a generator.
type derivedSchema struct {
	format     derive.Format
	path, text string
}

// deriveSchemas derives, inside the package in dir, the schema of each
// generator in gens that works from one, after checking that its program
// is installed and that no file would be overwritten; it sets p.schemaPath
// and p.importPath. Nothing is written.
func deriveSchemas(ctx context.Context, dir string, p *typePkg, gens []string) ([]derivedSchema, error) {
	var out []derivedSchema
	for _, g := range gens {
		gen := generators[g]
		if gen.schema == "" {
			continue
		}
		if _, err := exec.LookPath(gen.binary); err != nil {
			return nil, fmt.Errorf("init: -codegen %s needs %s for go generate, and it is not installed (%s); nothing was written", g, gen.binary, gen.install)
		}
		if !hasRequire(dir, "github.com/serbench/serbench") {
			return nil, fmt.Errorf("init: -codegen %s derives the schema inside your package, which needs github.com/serbench/serbench in go.mod first: go get github.com/serbench/serbench; nothing was written", g)
		}
		rel := schemaDir + "/" + strings.ToLower(p.typeName) + "." + string(gen.schema)
		if rel == p.schemaPath {
			continue // written once for the generators that share it
		}
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if _, err := os.Stat(path); err == nil {
			return nil, fmt.Errorf("init: %s already exists; nothing was written (remove or rename it to start again)", path)
		}
		text, err := deriveInPackage(ctx, dir, p.typeName, gen.schema)
		if err != nil {
			return nil, fmt.Errorf("init: %w", err)
		}
		cmd := exec.CommandContext(ctx, "go", "list", "-f", "{{.ImportPath}}", ".")
		cmd.Dir = dir
		ip, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("init: go list in %s: %w", dir, err)
		}
		p.schemaPath, p.importPath = rel, strings.TrimSpace(string(ip))+"/"+schemaDir
		out = append(out, derivedSchema{format: gen.schema, path: path, text: text})
	}
	return out, nil
}

// writeNew writes text to the new file path, making its folder; an
// existing file is an error.
func writeNew(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(f, text); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}

// typePkg is where findType found the type.
type typePkg struct {
	name     string   // package name
	file     string   // file name of the type's declaration
	typeName string   // the type
	fields   []string // "Name: value," lines for the sample literal; nil if not a struct
	comments []string // fields without a placeholder value
	imports  []string // extra imports the literal needs ("time")
	// composite is true when &T{...} is a valid literal (struct, array,
	// slice or map); otherwise the sample is new(T).
	composite bool
	// schemaPath is the derived schema's file, relative to the package
	// (serbenchpb/order.proto), and importPath the Go import path of its
	// folder; "" without a generator that needs one.
	schemaPath, importPath string
}

// findType parses the non-test Go files in dir and finds the declaration
// of name. Errors, prefixed with the subcommand cmd: no Go files, a parse
// error, no such type.
func findType(cmd, dir, name string) (*typePkg, error) {
	matches, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	fset := token.NewFileSet()
	var p *typePkg
	pkgName := ""
	for _, m := range matches {
		if strings.HasSuffix(m, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, m, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cmd, err)
		}
		pkgName = f.Name.Name
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				if ts.Name.Name != name {
					continue
				}
				if ts.TypeParams != nil {
					return nil, fmt.Errorf("%s: %s in %s is generic; write the test by hand with an instance such as %s[int]", cmd, name, m, name)
				}
				p = &typePkg{name: f.Name.Name, file: filepath.Base(m), typeName: name}
				switch t := ts.Type.(type) {
				case *ast.StructType:
					p.composite = true
					p.placeholders(t, timeImportName(f))
				case *ast.ArrayType, *ast.MapType:
					p.composite = true
				}
			}
		}
	}
	if pkgName == "" {
		return nil, fmt.Errorf("%s: no Go files in %s (want the package that declares -type)", cmd, dir)
	}
	if p == nil {
		return nil, fmt.Errorf("%s: no type %s declared in package %s in %s", cmd, name, pkgName, dir)
	}
	return p, nil
}

// timeImportName is the name file f imports package time under, or "".
func timeImportName(f *ast.File) string {
	for _, im := range f.Imports {
		if im.Path.Value == `"time"` {
			if im.Name != nil {
				return im.Name.Name
			}
			return "time"
		}
	}
	return ""
}

// placeholders fills p.fields with a placeholder value for each exported
// field of a basic type or time.Time, and p.comments with the others.
func (p *typePkg) placeholders(st *ast.StructType, timePkg string) {
	for _, fl := range st.Fields.List {
		for _, n := range fl.Names {
			if !n.IsExported() {
				continue
			}
			val := ""
			switch t := fl.Type.(type) {
			case *ast.Ident:
				switch t.Name {
				case "string":
					val = fmt.Sprintf("%q", "example "+strings.ToLower(n.Name))
				case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
					val = "42"
				case "float32", "float64":
					val = "12.5"
				case "bool":
					val = "true"
				}
			case *ast.SelectorExpr:
				if x, ok := t.X.(*ast.Ident); ok && x.Name == timePkg && t.Sel.Name == "Time" {
					val = "time.Date(2026, time.November, 23, 9, 30, 0, 0, time.UTC)"
					p.imports = appendOnce(p.imports, "time")
				}
			}
			if val == "" {
				p.comments = append(p.comments, n.Name)
				continue
			}
			p.fields = append(p.fields, n.Name+": "+val+",")
		}
	}
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// hasRequire reports whether the go.mod of the module holding dir requires
// module path (a plain text check; false when there is no go.mod).
func hasRequire(dir, path string) bool {
	d, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			return bytes.Contains(data, []byte(path+" "))
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return false
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}

var initTemplate = template.Must(template.New("init").Parse(`package {{.Pkg.Name}}

// Serialization benchmarks and round-trip checks of {{.Pkg.TypeName}}, written by
// serbench init -type {{.Pkg.TypeName}}{{if .Gens}} -codegen {{.Codegen}}{{end}}. Edit freely.
//{{if .Gens}}
//	go generate                                         the generated code{{end}}
//	go test -run TestCodecs -v                          which codecs round-trip the sample
//	go test -run '^$' -bench Codecs -count 6 > new.txt  time them
//	serbench show new.txt                               the table (-format html for a report)
{{range .Generate}}
//go:generate {{.}}{{end}}

import (
	"testing"
{{range .Pkg.Imports}}	"{{.}}"
{{end}}
	"github.com/serbench/serbench"{{if .Adapters}}
	"github.com/serbench/serbench/codec"{{end}}{{if .Pkg.Local}}
	"{{.Pkg.Local}}"{{end}}
)

// sample{{.Pkg.TypeName}} is the value every codec round-trips and is timed on. The
// values are placeholders: make it look like your real data (sizes, text,
// numbers), or load it from a JSON file with
//
//	sample, err := serbench.FromJSON[{{.Pkg.TypeName}}]("testdata/sample.json")
{{if .Pkg.Composite}}var sample{{.Pkg.TypeName}} = &{{.Pkg.TypeName}}{ {{range .Pkg.Fields}}
	{{.}}{{end}}{{range .Pkg.Comments}}
	// {{.}}: set a value,{{end}}
}{{else}}var sample{{.Pkg.TypeName}} = new({{.Pkg.TypeName}}) // set a value{{end}}

// serbenchOptions choose the codecs; the zero value runs serbench's default
// set (serbench list) and skips, with the reason, those that cannot take {{.Pkg.TypeName}}.
var serbenchOptions = serbench.Options{
	// Codecs:  []string{"all"}, // codec IDs and groups, as serbench run -codecs takes them;
	// groups stand for the linked codecs: the default set, or every codec once this file
	// imports _ "github.com/serbench/serbench/codec/all"
	// Require: []string{"encoding/json"}, // TestCodecs fails if these lose data{{if .Adapters}}
	Extra: []codec.Codec{ {{range .Adapters}}{{.}}, {{end}} },{{end}}
}

func BenchmarkCodecs(b *testing.B) { serbench.Benchmark(b, sample{{.Pkg.TypeName}}, serbenchOptions) }

func TestCodecs(t *testing.T) { serbench.Check(t, sample{{.Pkg.TypeName}}, serbenchOptions) }
`))

// initSource renders and formats the starter file.
func initSource(p *typePkg, gens []string) ([]byte, error) {
	data := struct {
		Pkg struct {
			Name, TypeName, Local     string
			Fields, Comments, Imports []string
			Composite                 bool
		}
		Gens, Generate, Adapters []string
		Codegen                  string
	}{Gens: gens, Codegen: strings.Join(gens, ",")}
	data.Pkg.Name, data.Pkg.TypeName, data.Pkg.Fields, data.Pkg.Comments, data.Pkg.Imports = p.name, p.typeName, p.fields, p.comments, p.imports
	data.Pkg.Composite, data.Pkg.Local = p.composite, p.importPath
	base := strings.TrimSuffix(p.file, ".go")
	for _, g := range gens {
		gen := generators[g]
		data.Generate = append(data.Generate, fmt.Sprintf(gen.generate, p.file, base, p.schemaPath, p.importPath))
		data.Adapters = append(data.Adapters, fmt.Sprintf(gen.adapter, p.typeName))
	}
	var b bytes.Buffer
	if err := initTemplate.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("init: %w", err)
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("init: generated file does not parse: %w\n%s", err, b.Bytes())
	}
	return src, nil
}
