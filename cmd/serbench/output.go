package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// openOutput returns where a report goes. With no path it is stdout. With a
// path it is a temporary file beside it, created now so that an unwritable
// path fails before any long work; commit(true) renames it over path, and
// commit(false) removes it, leaving any existing file at path untouched.
func openOutput(stdout io.Writer, path string) (w io.Writer, commit func(ok bool) error, err error) {
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
