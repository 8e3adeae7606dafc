// Package scaffold writes into a user's Go package what `serbench init`
// and `serbench schema` produce: a starter benchmark file for one of the
// package's types with the code generators it asks for (Init), and the
// schemas and schema-tightening hints package derive finds for the type,
// run inside the package through go test -overlay (Schema, Hints).
//
// Nothing is half-written: Init checks every generator's program, derives
// every schema and conversion and refuses to overwrite any file before it
// writes the first one. The package never prints; what it wrote and what
// the user runs next are returned as data.
package scaffold

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/template"

	"golang.org/x/mod/modfile"

	"github.com/serbench/serbench/derive"
)

// InitFile is the file Init writes into the package.
const InitFile = "serbench_test.go"

// The files Init writes into the package for -codegen flatbuffers and
// -codegen protobuf: the conversion between the user's type and the code
// flatc or protoc-gen-go generates, derived from the type by package
// derive (FlatBuffersGo, ProtoGo).
const (
	FlatBuffersFile = "serbench_flatbuffers_test.go"
	ProtobufFile    = "serbench_protobuf_test.go"
)

// generator is a code generator Init can wire up for the user's type: a
// go.mod tool directive, a //go:generate line and the adapter.
type generator struct {
	module  string // module path: of the tool for go get -tool, or of the runtime the generated code needs
	tool    string // package path of the command, as `go tool` names it; "" for a program that is not a Go tool
	version string // pinned version: the one serbench itself is built and tested with (go.mod)
	// generate is the //go:generate command for the file that holds the
	// type; %[1]s is that file's name, %[2]s the name without ".go",
	// %[3]s the schema's file and %[4]s the import path of its folder.
	generate string
	adapter  string // serbench.Options.Extra entry; %s, if any, is the type as the test writes it
	// local is true for a generator that writes methods onto the type's
	// declaration in the package: it cannot take another package's type.
	local bool
	// schema is the derived schema's format for a generator that works
	// from a schema: Init writes it under dir, where the generated code
	// goes too (package dir).
	schema derive.Format
	dir    string
	// conv is the conversion code Init writes beside a schema's generated
	// code; zero for none.
	conv convCode
	// binary is the program the generate line runs besides the go tool,
	// with how to install it; "" for none. binaryVersion, when set, is
	// what `binary --version` must print.
	binary, binaryVersion, install string
	// needs is a generator this one adds code onto ("" for none).
	needs string
}

// Folders, inside the user's package, of the schemas Init derives and of
// the code generated from them.
const (
	protoDir = "serbenchpb" // protoc-gen-go and protoc-gen-go-vtproto's code, package serbenchpb
	fbsDir   = "serbenchfb" // flatc's code, package serbenchfb
)

// flatcVersion is the flatc that generated serbench's own FlatBuffers code
// (codec/flatbuffers/fb), the release of Debian 12's flatbuffers-compiler,
// whose Go output matches the runtime github.com/google/flatbuffers
// v2.0.8+incompatible of serbench's go.mod; the generate line refuses
// another.
const flatcVersion = "flatc version 2.0.8"

// generators are the -codegen choices. The versions are those of
// serbench's own go.mod (TestVersionsMatchGoMod keeps them in step).
var generators = map[string]generator{
	"msgp": {module: "github.com/tinylib/msgp", tool: "github.com/tinylib/msgp", version: "v1.6.5",
		generate: "go tool msgp -file %[1]s -o %[2]s_msgp.go -io=false -tests=false",
		adapter:  "serbench.Msgp[%s]()", local: true},
	"easyjson": {module: "github.com/mailru/easyjson", tool: "github.com/mailru/easyjson/easyjson", version: "v0.9.2",
		generate: "go tool easyjson -all -no_std_marshalers -output_filename %[2]s_easyjson.go %[1]s",
		adapter:  "serbench.EasyJSON[%s]()", local: true},
	"protobuf": {module: "google.golang.org/protobuf", tool: "google.golang.org/protobuf/cmd/protoc-gen-go", version: "v1.36.12",
		generate: `sh -c "protoc --plugin=protoc-gen-go=$(go tool -n protoc-gen-go) --go_out=. --go_opt=paths=source_relative --go_opt=M%[3]s=%[4]s %[3]s"`,
		adapter:  "serbench.ProtoDerived(serbenchToProto, serbenchFromProto)",
		schema:   derive.Proto, dir: protoDir, binary: "protoc",
		conv:    convCode{ProtobufFile, "ProtoGo", "the message types protoc-gen-go generates"},
		install: protocInstall},
	"vtprotobuf": {module: "github.com/planetscale/vtprotobuf", tool: "github.com/planetscale/vtprotobuf/cmd/protoc-gen-go-vtproto", version: "v0.6.0",
		generate: `sh -c "protoc --plugin=protoc-gen-go-vtproto=$(go tool -n protoc-gen-go-vtproto) --go-vtproto_out=. --go-vtproto_opt=paths=source_relative,features=marshal+unmarshal+size --go-vtproto_opt=M%[3]s=%[4]s %[3]s"`,
		adapter:  "serbench.VTProtoDerived(serbenchToProto, serbenchFromProto)",
		schema:   derive.Proto, dir: protoDir, binary: "protoc", install: protocInstall, needs: "protobuf"},
	"flatbuffers": {module: "github.com/google/flatbuffers", version: "v2.0.8+incompatible",
		generate: `sh -c "flatc --version | grep -qx '` + flatcVersion + `' || { echo 'serbench: %[3]s is compiled with ` + flatcVersion + ` (` + flatcInstall + `)' >&2; exit 1; }; flatc --go --go-namespace ` + fbsDir + ` -o . %[3]s && gofmt -w ` + fbsDir + `"`,
		adapter:  "serbench.FlatBuffersDerived(serbenchMarshalFlatBuffers, serbenchUnmarshalFlatBuffers, serbenchFlatBuffersSchema)",
		schema:   derive.FlatBuffers, dir: fbsDir, binary: "flatc", binaryVersion: flatcVersion, install: flatcInstall,
		conv: convCode{FlatBuffersFile, "FlatBuffersGo", "the FlatBuffers builder and accessors flatc generates"}},
}

// convCode is conversion code derive generates: the file Init writes it
// to, derive's function (FlatBuffersGo or ProtoGo), and what it converts
// the user's type to.
type convCode struct{ file, fn, what string }

const (
	protocInstall = "apt-get install protobuf-compiler, brew install protobuf, or a release from https://github.com/protocolbuffers/protobuf/releases"
	flatcInstall  = "apt-get install flatbuffers-compiler on Debian 12, or the v2.0.8 release from https://github.com/google/flatbuffers/releases"
)

// GeneratorNames lists the -codegen choices, comma-separated, sorted.
func GeneratorNames() string {
	names := make([]string, 0, len(generators))
	for n := range generators {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// ParseCodegen splits a comma-separated -codegen value into generator
// names. Errors: an unknown name, a generator without the one it adds
// code onto (vtprotobuf without protobuf).
func ParseCodegen(s string) ([]string, error) {
	var gens []string
	for _, g := range strings.Split(s, ",") {
		if g = strings.TrimSpace(g); g == "" {
			continue
		}
		if _, ok := generators[g]; !ok {
			return nil, fmt.Errorf("init: unknown generator %q in -codegen (valid: %s)", g, GeneratorNames())
		}
		gens = append(gens, g)
	}
	for _, g := range gens {
		if n := generators[g].needs; n != "" && !slices.Contains(gens, n) {
			return nil, fmt.Errorf("init: -codegen %s adds methods onto the code of %s: name both (-codegen %s,%s)", g, n, n, g)
		}
	}
	return gens, nil
}

// ParseSkip splits a comma-separated -skip value into field paths
// (derive.Options.Skip); whether each names a field is checked against
// the type. Errors: an empty path between commas.
func ParseSkip(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var paths []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p == "" {
			return nil, fmt.Errorf("an empty path in %q (want paths such as Account.Extensions,Meta.Labels)", s)
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// InitOptions say what Init writes.
type InitOptions struct {
	// Dir is the package's folder; "" is ".".
	Dir string
	// Type is the Go type to benchmark (required): declared in the
	// package (an alias included), pkg.Type for a package it imports as
	// pkg, or importpath.Type for any package the module can import.
	Type string
	// Codegen are generator names, as ParseCodegen returns them.
	Codegen []string
	// Get runs the go get -tool commands that pin the generators in
	// go.mod, instead of listing them as steps.
	Get bool
	// Skip are field paths the derived schemas and conversion code leave
	// out (derive.Options.Skip), written into the starter file as
	// serbench.Options.Skip so the comparison and the derived rows leave
	// them out too.
	Skip []string
}

// Written is one file Init wrote.
type Written struct {
	Path string // the file, joined to InitOptions.Dir
	What string // what it holds, a few words
}

// Step is one command the user runs next, in the package's folder.
type Step struct {
	Command string
	Why     string // "" for none
	// Ran is true for a go get command Init ran itself (Get, or the
	// serbench requirement a derived schema needs); Why then says what it
	// did.
	Ran bool
}

// InitResult is what Init did and what comes next.
type InitResult struct {
	Written []Written
	Next    []Step
}

// Init writes InitFile into the package in o.Dir: a benchmark and a
// fidelity check of o.Type across serbench's default set of codecs plus
// the generated ones of o.Codegen, with their //go:generate lines; for a
// generator that works from a schema, the schema derived from the type
// (under serbenchpb/ or serbenchfb/), and for flatbuffers the conversion
// code FlatBuffersFile. Errors, with nothing written: no such type, an
// existing file, a generator's program missing (one line naming it and
// its install), a module without serbench (for a derived schema); a go
// get -tool that fails (o.Get) after the files were written.
func Init(ctx context.Context, o InitOptions) (*InitResult, error) {
	dir := o.Dir
	if dir == "" {
		dir = "."
	}
	if o.Type == "" {
		return nil, errors.New("init: -type is required (the name of your Go type)")
	}
	for _, g := range o.Codegen {
		if _, ok := generators[g]; !ok {
			return nil, fmt.Errorf("init: unknown generator %q (valid: %s)", g, GeneratorNames())
		}
	}
	pkg, err := findType(ctx, "init", dir, o.Type)
	if err != nil {
		return nil, err
	}
	for _, g := range o.Codegen {
		if generators[g].local && pkg.foreign {
			return nil, fmt.Errorf("init: -codegen %s writes methods onto a type declared in your package, and %s is declared in another (%s): declare a struct of your own for it, or leave %s out; nothing was written",
				g, o.Type, pkg.where, g)
		}
	}
	path := filepath.Join(dir, InitFile)
	if _, err := os.Stat(path); err == nil {
		return nil, fmt.Errorf("init: %s already exists; nothing was written (remove or rename it to start again)", path)
	}
	var got *Step
	if !hasRequire(dir, serbenchModule) && (o.Get || needsSerbench(o.Codegen)) {
		// The derivation runs in the package, which must import serbench:
		// add the requirement as go get would, before anything is written.
		for _, g := range o.Codegen {
			if err := checkBinary(ctx, g, generators[g]); generators[g].schema != "" && err != nil {
				return nil, err
			}
		}
		s, err := requireSerbench(ctx, dir)
		if err != nil {
			return nil, err
		}
		got = &s
	}
	files, err := deriveFiles(ctx, dir, pkg, o.Codegen, o.Skip)
	if err != nil {
		return nil, err
	}
	src, err := initSource(pkg, o.Codegen, o.Skip)
	if err != nil {
		return nil, err
	}
	if err := writeNew(path, string(src)); err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("init: %s already exists; nothing was written (remove or rename it to start again)", path)
		}
		return nil, fmt.Errorf("init: write %s: %w", path, err)
	}
	res := &InitResult{}
	for i, f := range files {
		if err := writeNew(f.path, f.text); err != nil {
			os.Remove(path)
			for _, w := range files[:i] {
				os.Remove(w.path)
			}
			return nil, fmt.Errorf("init: %w; %s was removed again", err, path)
		}
		res.Written = append(res.Written, Written{Path: f.path, What: f.what})
	}
	res.Written = append(res.Written, Written{Path: path, What: fmt.Sprintf("package %s: the benchmark of %s, declared in %s", pkg.name, pkg.expr, pkg.where)})
	if got != nil {
		res.Next = append(res.Next, *got)
	} else if !hasRequire(dir, serbenchModule) {
		res.Next = append(res.Next, Step{Command: "go get " + serbenchModule})
	}
	for _, g := range o.Codegen {
		gen := generators[g]
		if gen.tool == "" {
			continue
		}
		args := []string{"go", "get", "-tool", gen.tool + "@" + gen.version}
		if !o.Get {
			res.Next = append(res.Next, Step{Command: strings.Join(args, " "), Why: "pins the generator in go.mod as a tool directive"})
			continue
		}
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return res, fmt.Errorf("init: %s: %w\n%s", strings.Join(args, " "), err, out)
		}
		res.Next = append(res.Next, Step{Command: strings.Join(args, " "), Why: "the generator is pinned in go.mod as a tool directive", Ran: true})
	}
	if len(o.Codegen) > 0 {
		res.Next = append(res.Next, Step{Command: "go generate", Why: "runs the //go:generate lines in " + InitFile})
	}
	res.Next = append(res.Next,
		Step{Command: "go mod tidy", Why: "records what the test imports in go.sum"},
		Step{Command: "go test -run TestCodecs -v", Why: "which codecs round-trip " + o.Type},
		Step{Command: "go test -run '^$' -bench Codecs -count 6 > new.txt && serbench show new.txt"})
	return res, nil
}

// derivedFile is a file Init writes for a generator.
type derivedFile struct {
	path, text, what string
}

// deriveFiles derives, inside the package in dir, the schema of each
// generator in gens that works from one (and for flatbuffers the
// conversion code), after checking that its program is installed and that
// no file would be overwritten; it sets p.schemas and p.importPath.
// Nothing is written.
func deriveFiles(ctx context.Context, dir string, p *typePkg, gens []string, skip []string) ([]derivedFile, error) {
	// The schemas and conversions are derived in one run of the
	// package's test binary, one test each (jobs), in the order of out.
	var out []derivedFile
	var jobs []job
	for _, g := range gens {
		gen := generators[g]
		if gen.schema == "" {
			continue
		}
		if err := checkBinary(ctx, g, gen); err != nil {
			return nil, err
		}
		if !hasRequire(dir, serbenchModule) {
			return nil, fmt.Errorf("init: -codegen %s derives the schema inside your package, which needs %s in go.mod first: go get %s; nothing was written", g, serbenchModule, serbenchModule)
		}
		rel := gen.dir + "/" + strings.ToLower(p.typeName) + "." + string(gen.schema)
		if _, done := p.schemas[gen.dir]; done {
			continue // written once for the generators that share it
		}
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if _, err := os.Stat(path); err == nil {
			return nil, fmt.Errorf("init: %s already exists; nothing was written (remove or rename it to start again)", path)
		}
		if p.modPath == "" {
			cmd := exec.CommandContext(ctx, "go", "list", "-f", "{{.ImportPath}}", ".")
			cmd.Dir = dir
			ip, err := cmd.Output()
			if err != nil {
				return nil, fmt.Errorf("init: go list in %s: %w", dir, err)
			}
			p.modPath = strings.TrimSpace(string(ip))
		}
		if p.schemas == nil {
			p.schemas = map[string]string{}
		}
		p.schemas[gen.dir] = rel
		jobs = append(jobs, schemaJob(gen.schema, skip))
		out = append(out, derivedFile{path: path,
			what: fmt.Sprintf("the %s schema derived from %s, lossy mappings as comments", gen.schema, p.expr)})
		if gen.conv.file == "" {
			continue
		}
		conv := filepath.Join(dir, gen.conv.file)
		if _, err := os.Stat(conv); err == nil {
			return nil, fmt.Errorf("init: %s already exists; nothing was written (remove or rename it to start again)", conv)
		}
		jobs = append(jobs, convJob(gen.conv.fn, p.modPath+"/"+gen.dir, skip))
		out = append(out, derivedFile{path: conv,
			what: fmt.Sprintf("the conversion between %s and %s into %s/", p.expr, gen.conv.what, gen.dir)})
	}
	if len(jobs) == 0 {
		return nil, nil
	}
	texts, err := runInPackage(ctx, dir, p.spec(), "", jobs)
	if err != nil {
		return nil, fmt.Errorf("init: %w", err)
	}
	for i := range out {
		out[i].text = texts[i]
	}
	return out, nil
}

// checkBinary returns an error when generator g's program is missing or,
// for one with a pinned version, another version.
func checkBinary(ctx context.Context, g string, gen generator) error {
	if _, err := exec.LookPath(gen.binary); err != nil {
		return fmt.Errorf("init: -codegen %s needs %s for go generate, and it is not installed (%s); nothing was written", g, gen.binary, gen.install)
	}
	if gen.binaryVersion == "" {
		return nil
	}
	out, err := exec.CommandContext(ctx, gen.binary, "--version").Output()
	if v := strings.TrimSpace(string(out)); err != nil || v != gen.binaryVersion {
		if err != nil {
			v = err.Error()
		}
		return fmt.Errorf("init: -codegen %s needs %s, the version serbench's own code is generated with and whose Go code matches the runtime %s %s; %s --version says %q (%s); nothing was written",
			g, gen.binaryVersion, gen.module, gen.version, gen.binary, v, gen.install)
	}
	return nil
}

// writeNew writes text to the new file path, making its folder; an
// existing file is an error wrapping os.ErrExist.
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

// maxSampleDepth is how deep the sample literal fills structs reached
// through fields: the top-level type is depth 0, a struct in one of its
// fields depth 1, one in that struct's fields depth 2.
const maxSampleDepth = 2

// placeholders returns the "Name: value," lines of a sample literal of
// struct st (declared in g, whose file imports package time as timePkg)
// and the names of the fields it leaves to the user. An exported field of
// a basic type or time.Time, or a pointer to one (through the file's
// generic serbenchPtr, p.ptr), gets a placeholder; an embedded time.Time
// (a time wrapper) too; a field of a struct type declared in g, or a
// pointer to one, gets a literal of that struct filled the same way,
// down to maxSampleDepth and not into a type already on the way (chain:
// the type names from the top), where it is a comment like the fields
// it has no value for.
func (p *typePkg) placeholders(g *goFiles, st *ast.StructType, timePkg string, depth int, chain []string) (fields, comments []string) {
	isTime := func(e ast.Expr) bool {
		t, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		x, ok := t.X.(*ast.Ident)
		return ok && x.Name == timePkg && t.Sel.Name == "Time"
	}
	const timeVal = "time.Date(2026, time.November, 23, 9, 30, 0, 0, time.UTC)"
	for _, fl := range st.Fields.List {
		if len(fl.Names) == 0 && isTime(fl.Type) {
			// An embedded time.Time: the field is named Time.
			p.addImport("time")
			fields = append(fields, "Time: "+timeVal+",")
			continue
		}
		for _, n := range fl.Names {
			if !n.IsExported() {
				continue
			}
			typ, ptr := fl.Type, false
			if star, ok := typ.(*ast.StarExpr); ok {
				typ, ptr = star.X, true
			}
			val, goType := "", ""
			switch t := typ.(type) {
			case *ast.Ident:
				goType = t.Name
				switch t.Name {
				case "string":
					val = fmt.Sprintf("%q", "example "+strings.ToLower(n.Name))
				case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
					val = "42"
				case "float32", "float64":
					val = "12.5"
				case "bool":
					val = "true"
				default:
					val = p.nested(g, t.Name, depth, chain)
					if val != "" && ptr {
						val, ptr = "&"+val, false
					}
				}
			case *ast.SelectorExpr:
				if isTime(t) {
					val, goType = timeVal, "time.Time"
					p.addImport("time")
				}
			}
			if val == "" {
				comments = append(comments, n.Name)
				continue
			}
			if ptr {
				val, p.ptr = fmt.Sprintf("serbenchPtr[%s](%s)", goType, val), true
			}
			fields = append(fields, n.Name+": "+val+",")
		}
	}
	return fields, comments
}

// nested is the literal of struct type name declared in g, filled by
// placeholders one level deeper ("Plan{\nName: ...,\n}", qualified with
// the import name for another package's type), or "" for a type that is
// not a struct declared there, is generic, unexported in another
// package, beyond maxSampleDepth, on the way already (recursive), or has
// no field placeholders can fill.
func (p *typePkg) nested(g *goFiles, name string, depth int, chain []string) string {
	if depth >= maxSampleDepth || slices.Contains(chain, name) || (p.importName != "" && !token.IsExported(name)) {
		return ""
	}
	ts, i := g.find(name)
	if ts == nil || ts.TypeParams != nil || ts.Assign.IsValid() {
		return ""
	}
	st, ok := ts.Type.(*ast.StructType)
	if !ok {
		return ""
	}
	fields, comments := p.placeholders(g, st, timeImportName(g.files[i]), depth+1, append(slices.Clip(chain), name))
	if len(fields) == 0 {
		return ""
	}
	var b strings.Builder
	if p.importName != "" {
		b.WriteString(p.importName + ".")
	}
	b.WriteString(name + "{\n")
	for _, f := range fields {
		b.WriteString(f + "\n")
	}
	for _, c := range comments {
		b.WriteString("// " + c + ": set a value,\n")
	}
	b.WriteString("}")
	return b.String()
}

// addImport adds path to the imports the sample literal needs.
func (p *typePkg) addImport(path string) {
	if !slices.Contains(p.imports, path) {
		p.imports = append(p.imports, path)
	}
}

// hasRequire reports whether the go.mod of the module holding dir requires
// module path (false when there is no go.mod or it does not parse; a
// replace directive alone is no requirement).
func hasRequire(dir, path string) bool {
	mf := modFile(dir)
	return mf != nil && slices.ContainsFunc(mf.Require, func(r *modfile.Require) bool { return r.Mod.Path == path })
}

// modFile is the parsed go.mod of the module holding dir; nil when there
// is none or it does not parse.
func modFile(dir string) *modfile.File {
	d, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	for {
		name := filepath.Join(d, "go.mod")
		data, err := os.ReadFile(name)
		if err == nil {
			mf, err := modfile.Parse(name, data, nil)
			if err != nil {
				return nil
			}
			return mf
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil
		}
		d = parent
	}
}

var initTemplate = template.Must(template.New("init").Parse(`package {{.Pkg.Name}}

// Serialization benchmarks and round-trip checks of {{.Pkg.Type}}, written by
// serbench init -type {{.Spec}}{{if .Gens}} -codegen {{.Codegen}}{{end}}{{if .Skip}} -skip {{.SkipFlag}}{{end}}. Edit freely.
//{{if .Gens}}
//	go generate                                         the generated code{{end}}
//	go test -run TestCodecs -v                          which codecs round-trip the sample
//	go test -run '^$' -bench Codecs -count 6 > new.txt  time them
//	serbench show new.txt                               the table (-format html for a report)
{{range .Generate}}
//go:generate {{.}}{{end}}

import (
	"testing"
{{range .Pkg.Imports}}	{{.}}
{{end}}
	"github.com/serbench/serbench"{{if .Adapters}}
	"github.com/serbench/serbench/codec"{{end}}{{with .Pkg.Import}}

	{{.}}{{end}}
)

// sample{{.Pkg.TypeName}} is the value every codec round-trips and is timed on. The
// values are placeholders: make it look like your real data (sizes, text,
// numbers), or load it from a JSON file instead:
//
//	var sample{{.Pkg.TypeName}} = func() *{{.Pkg.Type}} {
//		v, err := serbench.FromJSON[{{.Pkg.Type}}]("testdata/sample.json")
//		if err != nil {
//			panic(err) // the file is missing, or does not fit {{.Pkg.Type}}
//		}
//		return v
//	}()
{{if .Pkg.Composite}}var sample{{.Pkg.TypeName}} = &{{.Pkg.Type}}{ {{range .Pkg.Fields}}
	{{.}}{{end}}{{range .Pkg.Comments}}
	// {{.}}: set a value,{{end}}
}{{else}}var sample{{.Pkg.TypeName}} = new({{.Pkg.Type}}) // set a value{{end}}

// serbenchOptions choose the codecs; the zero value runs serbench's default
// set (serbench list) and skips, with the reason, those that cannot take {{.Pkg.Type}}.
var serbenchOptions = serbench.Options{
	// Codecs:  []string{"all"}, // codec IDs and groups, as serbench run -codecs takes them;
	// groups stand for the registry's codecs: the default set, or every codec with
	// Registry: all.Registry(), from "github.com/serbench/serbench/codec/all"
	// Require: []string{"encoding/json"}, // TestCodecs fails if these lose data{{if .Skip}}
	// Skip: fields the schema codecs leave out (the generated code too: change
	// it with serbench init -skip, not here); the reflection codecs keep them.
	Skip: {{.Skip}},{{end}}{{if .Adapters}}
	Extra: []codec.Codec{ {{range .Adapters}}{{.}}, {{end}} },{{end}}
}

func BenchmarkCodecs(b *testing.B) { serbench.Benchmark(b, sample{{.Pkg.TypeName}}, serbenchOptions) }{{if .Pkg.Ptr}}

// serbenchPtr returns a pointer to v, for the pointer fields of the sample.
func serbenchPtr[T any](v T) *T { return &v }{{end}}

func TestCodecs(t *testing.T) { serbench.Check(t, sample{{.Pkg.TypeName}}, serbenchOptions) }
`))

// initSource renders and formats the starter file.
func initSource(p *typePkg, gens []string, skip []string) ([]byte, error) {
	data := struct {
		Pkg struct {
			Name, TypeName, Type, Import string
			Fields, Comments, Imports    []string
			Composite, Ptr               bool
		}
		Gens, Generate, Adapters      []string
		Codegen, Spec, Skip, SkipFlag string
	}{Gens: gens, Codegen: strings.Join(gens, ","), Spec: p.spec()}
	if len(skip) > 0 {
		data.Skip, data.SkipFlag = goStrings(skip), strings.Join(skip, ",")
	}
	data.Pkg.Name, data.Pkg.TypeName, data.Pkg.Fields, data.Pkg.Comments = p.name, p.typeName, p.fields, p.comments
	data.Pkg.Composite, data.Pkg.Type, data.Pkg.Ptr = p.composite, p.expr, p.ptr
	for _, im := range p.imports {
		data.Pkg.Imports = append(data.Pkg.Imports, strconv.Quote(im))
	}
	if p.importPath != "" {
		im := strconv.Quote(p.importPath)
		if p.importName != pathName(p.importPath) {
			im = p.importName + " " + im
		}
		if strings.Contains(strings.Split(p.importPath, "/")[0], ".") {
			data.Pkg.Import = im
		} else { // the standard library's group
			data.Pkg.Imports = append(data.Pkg.Imports, im)
		}
	}
	base := strings.TrimSuffix(p.file, ".go")
	for _, g := range gens {
		gen := generators[g]
		data.Generate = append(data.Generate, fmt.Sprintf(gen.generate, p.file, base, p.schemas[gen.dir], p.modPath+"/"+gen.dir))
		adapter := gen.adapter
		if strings.Contains(adapter, "%s") {
			adapter = fmt.Sprintf(adapter, p.expr)
		}
		data.Adapters = append(data.Adapters, adapter)
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

// GeneratedCodec is a codec row Init wires up for a user's type from a
// schema derived from it, as `serbench list` describes it.
type GeneratedCodec struct {
	// ID is the row's codec ID, also the -codegen name that adds it.
	ID string
	// Module and Version are the library the generated code calls.
	Module, Version string
	// Schema is the derived schema's format.
	Schema derive.Format
	// Needs names the programs go generate runs ("protoc; go tool protoc-gen-go").
	Needs string
}

// GeneratedCodecs are the generators that work from a derived schema, by ID.
func GeneratedCodecs() []GeneratedCodec {
	var out []GeneratedCodec
	for _, name := range strings.Split(GeneratorNames(), ", ") {
		g := generators[name]
		if g.schema == "" {
			continue
		}
		needs := g.binary
		if g.binaryVersion != "" {
			needs = g.binaryVersion
		}
		if g.tool != "" {
			needs += "; go tool " + path.Base(g.tool) + " (pinned by init -get)"
		}
		if g.needs != "" {
			needs += "; -codegen " + g.needs + " too"
		}
		out = append(out, GeneratedCodec{ID: name, Module: g.module, Version: g.version, Schema: g.schema, Needs: needs})
	}
	return out
}
