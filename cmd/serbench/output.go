package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// output is where a document goes (-o): stdout, or a temporary file beside
// path (github.com/google/renameio/v2) that commit renames over it once
// the document is written, so an existing file is replaced only whole.
type output struct {
	w    io.Writer
	path string
	file *renameio.PendingFile // nil for stdout
}

// openOutput returns where a document goes: stdout when path is "", else
// a temporary file beside path, created now so that an unwritable -o
// fails before any long work.
func openOutput(stdout io.Writer, path string) (*output, error) {
	if path == "" {
		return &output{w: stdout}, nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("-o %s: is a directory", path)
	}
	f, err := renameio.NewPendingFile(path, renameio.WithTempDir(filepath.Dir(path)), renameio.WithStaticPermissions(0o644))
	if err != nil {
		return nil, fmt.Errorf("-o %s: cannot write there: %w", path, err)
	}
	return &output{w: f, path: path, file: f}, nil
}

// discard removes the temporary file unless commit has renamed it,
// leaving any existing file at the path untouched; callers defer it.
func (o *output) discard() {
	if o.file != nil {
		o.file.Cleanup()
	}
}

// commit renames the temporary file over the path.
func (o *output) commit() error {
	if o.file == nil {
		return nil
	}
	if err := o.file.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("-o %s: %w", o.path, err)
	}
	return nil
}

// write writes the document with write and, when that succeeds, renames
// the file into place; its error names the output.
func (o *output) write(write func(io.Writer) error) error {
	if err := write(o.w); err != nil {
		return fmt.Errorf("write %s: %w", outName(o.path), err)
	}
	return o.commit()
}

func outName(path string) string {
	if path == "" {
		return "standard output"
	}
	return path
}
