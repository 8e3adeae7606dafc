//go:build unix

package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadersRefuseFIFO: every command that reads a file refuses a named
// pipe at once with one line naming it (before, list -corpus FIFO blocked
// in open until killed). A hang here shows as the test timing out.
func TestReadersRefuseFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"list", "-corpus", fifo},
		{"show", fifo},
		{"compare", fifo, fifo},
		{"merge", fifo, fifo},
		{"archive", "add", "-to", filepath.Join(t.TempDir(), "results"), fifo},
		{"site", "-o", filepath.Join(t.TempDir(), "site"), fifo},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, args)
		if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "pipe.json is a named pipe (FIFO), not a regular file") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", strings.Join(args, " "), err)
		}
	}
}
