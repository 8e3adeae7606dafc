package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// output is where a document goes (-o): stdout, or a temporary file beside
// path that write renames over it once the document is written.
type output struct {
	w      io.Writer
	path   string
	commit func(ok bool) error
}

// openOutput returns where a document goes, created now so that an
// unwritable -o fails before any long work (openFile).
func openOutput(stdout io.Writer, path string) (*output, error) {
	w, commit, err := openFile(stdout, path)
	if err != nil {
		return nil, err
	}
	return &output{w, path, commit}, nil
}

// discard removes the temporary file unless write has renamed it,
// leaving any existing file at the path untouched; callers defer it.
func (o *output) discard() { o.commit(false) }

// write writes the document with write and, when that succeeds, renames
// the file into place; its error names the output.
func (o *output) write(write func(io.Writer) error) error {
	if err := write(o.w); err != nil {
		return fmt.Errorf("write %s: %w", outName(o.path), err)
	}
	return o.commit(true)
}

// openFile returns where a report goes. With no path it is stdout. With a
// path it is a temporary file beside it, created now so that an unwritable
// path fails before any long work; commit(true) renames it over path, and
// commit(false) removes it, leaving any existing file at path untouched.
func openFile(stdout io.Writer, path string) (w io.Writer, commit func(ok bool) error, err error) {
	if path == "" {
		return stdout, func(bool) error { return nil }, nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, nil, fmt.Errorf("-o %s: is a directory", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, nil, fmt.Errorf("-o %s: cannot write there: %w", path, err)
	}
	done := false
	commit = func(ok bool) error {
		if done {
			return nil
		}
		done = true
		if !ok {
			f.Close()
			os.Remove(f.Name())
			return nil
		}
		if err := f.Close(); err != nil {
			os.Remove(f.Name())
			return fmt.Errorf("-o %s: %w", path, err)
		}
		if err := os.Chmod(f.Name(), 0o644); err != nil {
			os.Remove(f.Name())
			return fmt.Errorf("-o %s: %w", path, err)
		}
		if err := os.Rename(f.Name(), path); err != nil {
			os.Remove(f.Name())
			return fmt.Errorf("-o %s: %w", path, err)
		}
		return nil
	}
	return f, commit, nil
}

func outName(path string) string {
	if path == "" {
		return "standard output"
	}
	return path
}
