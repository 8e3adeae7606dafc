// Package gencheck knows how serbench's generated code is made, so that
// `go generate` (through the command gencheck/generate) and a test run
// exactly the same steps: the test regenerates into a temporary folder and
// compares the result byte for byte with the committed files.
//
// There are two kinds of Job. A protoc job runs protoc from the system
// (Debian's protobuf-compiler, installed by scripts/install-codegen-tools.sh)
// with plugins that are Go programs pinned as tool directives in go.mod and
// located with `go tool -n NAME`, so their versions are the module's. A
// converter job renders convert.go.tmpl: the functions that copy scenario
// values to and from one package of generated message types, written once
// for every such package (protoc-gen-go's and gogofaster's types have the
// same fields but are distinct types).
package gencheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// SchemaDir is the folder of the .proto files, relative to the module root.
const SchemaDir = "schema/proto"

const module = "github.com/serbench/serbench"

// Job writes the generated files of one Go package.
type Job struct {
	// Name identifies the job on the command line of gencheck/generate.
	Name string
	// Dir is the Go package the files go to, relative to the module root,
	// with forward slashes.
	Dir string
	// Outputs are the names of the files the job writes into Dir.
	Outputs []string
	// GoLine, when set ("go1.26"), is the Go release line the committed
	// files were generated with. Generators that gofmt their output with the
	// go/format of the Go that builds them write other bytes on another line
	// (Go 1.27's go/format aligns comments differently), so Verify checks
	// such a job only on its own line and skips elsewhere, saying so. CI
	// tests on both lines, so each job is checked on one of them.
	GoLine string
	// run writes the outputs into outDir; root is the module root.
	run func(ctx context.Context, root, outDir string) error
}

// on returns j with GoLine set to line.
func (j Job) on(line string) Job {
	j.GoLine = line
	return j
}

// Run runs j with root as the module root, writing into outDir (which must
// exist). A protoc job returns ErrNoProtoc when protoc is missing.
func (j Job) Run(ctx context.Context, root, outDir string) error {
	if err := j.run(ctx, root, outDir); err != nil {
		return fmt.Errorf("gencheck: job %s: %w", j.Name, err)
	}
	return nil
}

// Jobs are the project's generators, in the order `go generate ./...` would
// meet them:
//   - protobuf: protoc-gen-go and protoc-gen-go-vtproto write package
//     codec/protobuf/pb (vtprotobuf adds methods to protoc-gen-go's types);
//   - protobuf-opaque: protoc-gen-go writes package codec/protobuf/opaquepb
//     with the Opaque API (default_api_level=API_OPAQUE) from a copy of
//     serbench.proto in proto package serbench.opaque, every message field
//     marked [lazy = true] (protocPackageJob);
//   - protobuf-convert: the converters of package codec/protobuf/pbcodec;
//   - gogoproto: protoc-gen-gogofaster writes codec/gogoproto/gogopb with
//     google.protobuf.Timestamp mapped to github.com/gogo/protobuf/types;
//   - gogoproto-convert: the converters of package codec/gogoproto;
//   - thrift-convert: the converters of package codec/thrift, from the
//     same convert.go.tmpl (Go initialisms, i64 and double, an offset time);
//   - bebop-convert, benc-convert: the converters of packages codec/bebop
//     and codec/benc, from convertvalue.go.tmpl;
//   - wire-bindings: the Bindings and DecMode.Unmarshal methods of the
//     seed types in package codec/wire, from wirebind.go.tmpl;
//   - evolve-v1, evolve-v2: protoc-gen-go writes packages evolve/pbv1 and
//     evolve/pbv2 from schema/proto/evolve/order_v1.proto and order_v2.proto
//     (the two versions of `serbench evolve`'s order type).
//
// The schema has no go_package option: M options give each generator its
// Go package.
var Jobs = []Job{
	protocJob("protobuf", "codec/protobuf/pb", []string{"serbench.pb.go", "serbench_vtproto.pb.go"},
		Plugin{Tool: "protoc-gen-go", Opts: "paths=source_relative,Mserbench.proto=" + module + "/codec/protobuf/pb"},
		Plugin{Tool: "protoc-gen-go-vtproto", Opts: "paths=source_relative,features=marshal+unmarshal+size,Mserbench.proto=" + module + "/codec/protobuf/pb"},
	),
	protocPackageJob("protobuf-opaque", "codec/protobuf/opaquepb", "serbench_opaque.proto", "serbench.opaque", true, []string{"serbench_opaque.pb.go"},
		Plugin{Tool: "protoc-gen-go", Opts: "paths=source_relative,default_api_level=API_OPAQUE,Mserbench_opaque.proto=" + module + "/codec/protobuf/opaquepb"},
	),
	convertJob("protobuf-convert", "codec/protobuf/pbcodec", ConvertData{
		Package: "pbcodec", ConvsName: "Convs",
		Alias: "pb", TypesImport: module + "/codec/protobuf/pb",
		TimestampPkg: "timestamppb", TimestampImport: "google.golang.org/protobuf/types/known/timestamppb",
		Workloads: true,
	}),
	protocJob("gogoproto", "codec/gogoproto/gogopb", []string{"serbench.pb.go"},
		Plugin{Tool: "protoc-gen-gogofaster", Opts: "paths=source_relative" +
			",Mgoogle/protobuf/timestamp.proto=github.com/gogo/protobuf/types" +
			",Mserbench.proto=" + module + "/codec/gogoproto/gogopb" +
			",import_path=" + module + "/codec/gogoproto/gogopb"},
	).on("go1.26"),
	convertJob("gogoproto-convert", "codec/gogoproto", ConvertData{
		Package: "gogoproto", ConvsName: "convs",
		Alias: "gogopb", TypesImport: module + "/codec/gogoproto/gogopb",
		TimestampPkg: "types", TimestampImport: "github.com/gogo/protobuf/types",
		Workloads: true,
	}),
	convertJob("thrift-convert", "codec/thrift", ConvertData{
		Package: "thrift", ConvsName: "convs",
		Alias: "thriftgen", TypesImport: module + "/codec/thrift/thriftgen",
		OffsetTime: true, Initialisms: true, Widen: true, MapOfMaps: true,
		Notes: []string{
			"",
			"They copy field by field. Slices and maps of scalars and strings are",
			"shared with the source value, not copied; nested structs are built anew.",
			"What the round trip keeps and loses:",
			"  - uint64 travels as i64 with the same bits and float32 as double, both",
			"    exactly.",
			"  - time.Time keeps its instant to the nanosecond (Unix seconds and",
			"    nanoseconds, any year) and its offset from UTC, not its zone name: it",
			"    comes back in a time.FixedZone with an empty name (or time.UTC for",
			"    offset 0).",
			"  - Lists and maps are optional fields: a nil one is left out and decodes",
			"    as nil, an empty one decodes as empty. Nothing else is lost.",
		},
	}),
	renderJob("bebop-convert", "codec/bebop", ConvertFile, ValueConvertData{
		Package: "bebop", Alias: "bebopgen", TypesImport: module + "/codec/bebop/bebopgen",
		Generator: "bebopc-go", Suffix: "Bebop", FlagsField: "FlagList",
		NilNote: []string{"  - Bebop has no null array or map: a nil one is written as empty and", "    decodes as an empty, non-nil one."},
	}.Render),
	renderJob("benc-convert", "codec/benc", ConvertFile, ValueConvertData{
		Package: "benc", Alias: "bencgen", TypesImport: module + "/codec/benc/bencgen",
		Generator: "bencgen", Suffix: "Benc", FlagsField: "Flags",
		NilNote: []string{"  - Benc has no null slice or map: a nil one is written with length 0,", "    like an empty one."},
	}.Render),
	renderJob("wire-bindings", "codec/wire", WireBindFile, WireBindings{
		{Type: "SSEEvent", Binding: "sseBinding", Append: "appendSSEEvent", Cache: true, Decode: "sseEvent", Scratch: "smallScratch"},
		{Type: "UserEvent", Binding: "userEventBinding", Append: "appendUserEvent", Cache: true, Decode: "userEvent", Scratch: "largeScratch"},
		{Type: "WSMessage", Binding: "wsBinding", Append: "AppendWSMessage", Decode: "wsMessage", Scratch: "smallScratch"},
		{Type: "Annotation", Binding: "annotationBinding", Append: "AppendAnnotation", Decode: "annotation", Scratch: "smallScratch"},
		{Type: "UserProfile", Binding: "profileBinding", Append: "appendUserProfile", Cache: true, Decode: "userProfile", Scratch: "smallScratch"},
	}.Render),
	protocFileJob("evolve-v1", "evolve/pbv1", SchemaDir+"/evolve", "order_v1.proto", []string{"order_v1.pb.go"},
		Plugin{Tool: "protoc-gen-go", Opts: "paths=source_relative,Morder_v1.proto=" + module + "/evolve/pbv1"},
	),
	protocFileJob("evolve-v2", "evolve/pbv2", SchemaDir+"/evolve", "order_v2.proto", []string{"order_v2.pb.go"},
		Plugin{Tool: "protoc-gen-go", Opts: "paths=source_relative,Morder_v2.proto=" + module + "/evolve/pbv2"},
	),
}

// Lookup returns the Job named name.
func Lookup(name string) (Job, error) {
	names := make([]string, 0, len(Jobs))
	for _, j := range Jobs {
		if j.Name == name {
			return j, nil
		}
		names = append(names, j.Name)
	}
	return Job{}, fmt.Errorf("gencheck: unknown job %q (valid: %s)", name, strings.Join(names, ", "))
}

// ModuleRoot returns the folder holding go.mod, as `go env GOMOD` reports it
// for the current directory.
func ModuleRoot(ctx context.Context) (string, error) {
	out, err := goCmd(ctx, "", "env", "GOMOD")
	if err != nil {
		return "", err
	}
	if out == "" || out == os.DevNull {
		return "", errors.New("gencheck: not inside a Go module")
	}
	return filepath.Dir(out), nil
}

// Compare reports, in one error, every file of j.Outputs whose bytes differ
// between the folders want and got, any file missing from either, and any
// file in got that j.Outputs does not list.
func (j Job) Compare(want, got string) error {
	var problems []string
	for _, name := range j.Outputs {
		w, werr := os.ReadFile(filepath.Join(want, name))
		g, gerr := os.ReadFile(filepath.Join(got, name))
		switch {
		case werr != nil:
			problems = append(problems, werr.Error())
		case gerr != nil:
			problems = append(problems, gerr.Error())
		case !bytes.Equal(w, g):
			problems = append(problems, fmt.Sprintf("%s differs from the regenerated file from line %d (%d bytes committed, %d regenerated)",
				name, firstDiffLine(w, g), len(w), len(g)))
		}
	}
	if extra := extraFiles(got, j.Outputs); len(extra) > 0 {
		problems = append(problems, fmt.Sprintf("the job wrote files it does not list: %s", strings.Join(extra, ", ")))
	}
	if len(problems) > 0 {
		return fmt.Errorf("gencheck: job %s: %s", j.Name, strings.Join(problems, "; "))
	}
	return nil
}

// firstDiffLine returns the 1-based number of the first line where a and b
// differ.
func firstDiffLine(a, b []byte) int {
	line := 1
	for i := 0; i < len(a) && i < len(b) && a[i] == b[i]; i++ {
		if a[i] == '\n' {
			line++
		}
	}
	return line
}

func extraFiles(dir string, known []string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return []string{err.Error()}
	}
	var extra []string
	for _, e := range entries {
		if !slices.Contains(known, e.Name()) {
			extra = append(extra, e.Name())
		}
	}
	sort.Strings(extra)
	return extra
}

// goCmd runs the go command in dir and returns its trimmed standard output.
func goCmd(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("gencheck: go %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}
