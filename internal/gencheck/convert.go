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
func convertJob(name, dir string, d ConvertData) Job {
	return Job{Name: name, Dir: dir, Outputs: []string{ConvertFile}, run: func(_ context.Context, _, outDir string) error {
		src, err := d.Render()
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(outDir, ConvertFile), src, 0o644)
	}}
}
