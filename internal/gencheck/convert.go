package gencheck

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"text/template"
)

//go:embed convert.go.tmpl
var convertText string

var convertTmpl = template.Must(template.New("convert.go.tmpl").Parse(convertText))

// ConvertFile is the name of the file a converter job writes.
const ConvertFile = "convert_gen.go"

// ConvertData fills convert.go.tmpl for one package of generated types.
type ConvertData struct {
	// Package is the Go package the file belongs to ("pbcodec").
	Package string
	// ConvsName names the table of conversions ("Convs").
	ConvsName string
	// Alias and TypesImport name the package of generated types.
	Alias, TypesImport string
	// TimestampPkg and TimestampImport name the package of the generated
	// Timestamp type, which has int64 Seconds and int32 Nanos fields.
	TimestampPkg, TimestampImport string
}

// Render returns the gofmt-formatted converter source for d.
func (d ConvertData) Render() ([]byte, error) {
	var buf bytes.Buffer
	if err := convertTmpl.Execute(&buf, d); err != nil {
		return nil, fmt.Errorf("render convert.go.tmpl for %s: %w", d.Package, err)
	}
	src, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gofmt convert.go.tmpl for %s: %w", d.Package, err)
	}
	return src, nil
}

// convertJob returns the Job that writes dir/ConvertFile from d.
func convertJob(name, dir string, d ConvertData) Job { return renderJob(name, dir, d.Render) }

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

// renderJob returns the Job that writes dir/ConvertFile with render.
func renderJob(name, dir string, render func() ([]byte, error)) Job {
	return Job{Name: name, Dir: dir, Outputs: []string{ConvertFile}, run: func(_ context.Context, _, outDir string) error {
		src, err := render()
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(outDir, ConvertFile), src, 0o644)
	}}
}
