package gencheck

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"text/template"
)

//go:embed convert.go.tmpl
var convertText string

// convertTmpl is parsed with placeholder functions; Render binds them to
// its ConvertData.
var convertTmpl = template.Must(template.New("convert.go.tmpl").Funcs(ConvertData{}.funcs()).Parse(convertText))

// ConvertFile is the name of the file a converter job writes.
const ConvertFile = "convert_gen.go"

// ConvertData fills convert.go.tmpl for one package of generated types
// whose structs hold nested structs by pointer and have nil-safe getters
// for the fields of list elements (GetSku): protoc-gen-go's and
// protoc-gen-gogofaster's messages, and the Thrift compiler's structs.
type ConvertData struct {
	// Package is the Go package the file belongs to ("pbcodec").
	Package string
	// ConvsName names the table of conversions ("Convs").
	ConvsName string
	// Alias and TypesImport name the package of generated types.
	Alias, TypesImport string
	// TimestampPkg and TimestampImport name the package of the generated
	// Timestamp type, which has int64 Seconds and int32 Nanos fields.
	// Unused with OffsetTime.
	TimestampPkg, TimestampImport string
	// OffsetTime says time travels as the types package's own Time struct
	// (UnixSeconds, Nanos, OffsetSeconds), keeping the offset from UTC.
	OffsetTime bool
	// Initialisms says field names write ID, IP and UID as Go does
	// (EventID), not as the schema does (EventId): the Thrift compiler's.
	Initialisms bool
	// Widen says the schema has no unsigned and no 32-bit float types:
	// uint64 travels as int64 with the same bits, float32 as float64.
	Widen bool
	// MapOfMaps says UserEvent.Attributes is a map of maps; otherwise each
	// inner map is wrapped in a StringMap message with an Entries field.
	MapOfMaps bool
	// Workloads adds the annotation workloads' types (SparseMatrix,
	// BoxList, TimeSeries) to the conversions.
	Workloads bool
	// Notes are lines of the table's doc comment, each without the "// ".
	Notes []string
}

// initialisms are the schema's field name parts that Go writes in capitals.
var initialisms = strings.NewReplacer("Uid", "UID", "Id", "ID", "Ip", "IP")

// funcs are the template's functions: f "EventId" is the generated field
// name, to "int64" "v.EventID" the expression converted to the field's type.
func (d ConvertData) funcs() template.FuncMap {
	return template.FuncMap{
		"f": func(name string) string {
			if d.Initialisms {
				return initialisms.Replace(name)
			}
			return name
		},
		"to": func(typ, expr string) string {
			if d.Widen {
				return typ + "(" + expr + ")"
			}
			return expr
		},
	}
}

// Render returns the gofmt-formatted converter source for d.
func (d ConvertData) Render() ([]byte, error) {
	var buf bytes.Buffer
	tmpl, err := convertTmpl.Clone()
	if err != nil {
		return nil, err
	}
	if err := tmpl.Funcs(d.funcs()).Execute(&buf, d); err != nil {
		return nil, fmt.Errorf("render convert.go.tmpl for %s: %w", d.Package, err)
	}
	src, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gofmt convert.go.tmpl for %s: %w", d.Package, err)
	}
	return src, nil
}

// convertJob returns the Job that writes dir/ConvertFile from d.
func convertJob(name, dir string, d ConvertData) Job {
	return renderJob(name, dir, ConvertFile, d.Render)
}

//go:embed convertvalue.go.tmpl
var convertValueText string

var convertValueTmpl = template.Must(template.New("convertvalue.go.tmpl").Parse(convertValueText))

// ValueConvertData fills convertvalue.go.tmpl: the conversions of a
// generator whose structs hold nested structs by value and name fields as
// the .proto-style schema does (Id, EventId, Sku), as bebopc-go and
// bencgen generate them, and whose Time struct has UnixSeconds, Nanos and
// OffsetSeconds. The conversions table is named convs.
type ValueConvertData struct {
	// Package is the Go package the file belongs to ("bebop").
	Package string
	// Alias and TypesImport name the package of generated types.
	Alias, TypesImport string
	// Generator names the generator in the doc comment ("bebopc-go").
	Generator string
	// Suffix ends the conversion functions' names ("Bebop": sseToBebop).
	Suffix string
	// NilNote is the doc comment's lines on nil slices and maps, each
	// without the "// ".
	NilNote []string
	// FlagsField is the generated name of UserEvent.Flags ("FlagList").
	FlagsField string
}

// Render returns the gofmt-formatted converter source for d.
func (d ValueConvertData) Render() ([]byte, error) {
	var buf bytes.Buffer
	if err := convertValueTmpl.Execute(&buf, d); err != nil {
		return nil, fmt.Errorf("render convertvalue.go.tmpl for %s: %w", d.Package, err)
	}
	src, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gofmt convertvalue.go.tmpl for %s: %w", d.Package, err)
	}
	return src, nil
}

// renderJob returns the Job that writes dir/file with render.
func renderJob(name, dir, file string, render func() ([]byte, error)) Job {
	return Job{Name: name, Dir: dir, Outputs: []string{file}, run: func(_ context.Context, _, outDir string) error {
		src, err := render()
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(outDir, file), src, 0o644)
	}}
}

//go:embed wirebind.go.tmpl
var wireBindText string

var wireBindTmpl = template.Must(template.New("wirebind.go.tmpl").Parse(wireBindText))

// WireBindFile is the file of package codec/wire that WireBindings render.
const WireBindFile = "binding_gen.go"

// WireBinding fills wirebind.go.tmpl for one seed type of package
// codec/wire: its Binding type and its DecMode.Unmarshal method.
type WireBinding struct {
	// Type is the scenario type ("SSEEvent").
	Type string
	// Binding names the Binding type ("sseBinding").
	Binding string
	// Append is the encoder ("appendSSEEvent"); Cache says it takes a
	// *keyCache (the types with maps) after the value.
	Append string
	Cache  bool
	// Decode is the Decoder method that reads the message ("sseEvent").
	Decode string
	// Scratch is the constant sizing Marshal's stack buffer ("smallScratch").
	Scratch string
}

// WireBindings are codec/wire's seed types, in the order of the file.
type WireBindings []WireBinding

// Render returns the gofmt-formatted source of WireBindFile.
func (bs WireBindings) Render() ([]byte, error) {
	var buf bytes.Buffer
	if err := wireBindTmpl.Execute(&buf, bs); err != nil {
		return nil, fmt.Errorf("render wirebind.go.tmpl: %w", err)
	}
	src, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gofmt wirebind.go.tmpl: %w", err)
	}
	return src, nil
}
