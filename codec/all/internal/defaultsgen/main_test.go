package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/serbench/serbench/internal/childproc"
)

// TestCurrent checks that codec/defaults' committed list is what
// defaultsgen writes from the registry (go generate ./codec/defaults
// rewrites it).
func TestCurrent(t *testing.T) {
	if childproc.RaceEnabled {
		t.Skip("a -race build lacks gotiny; codec/all's TestDefaults checks the list there")
	}
	want, err := source(others())
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "..", "defaults", File))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("codec/defaults/%s is not current: run go generate ./codec/defaults\ngot:\n%s\nwant:\n%s", File, got, want)
	}
}
