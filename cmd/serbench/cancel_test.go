package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandsStopWhenCancelled: show, compare, list, archive and site
// check their context (cancelled by the first Ctrl-C, see interruptible)
// and return its error instead of working on.
func TestCommandsStopWhenCancelled(t *testing.T) {
	dir := t.TempDir()
	runFile := filepath.Join(dir, "a.json")
	if err := writeFile(runFile, "json", gateRun(1, 1)); err != nil {
		t.Fatal(err)
	}
	archiveDir := filepath.Join(dir, "results")
	if _, _, err := serbench(t, "archive", "add", "-to", archiveDir, runFile); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{
		{"show", runFile},
		{"compare", runFile, runFile},
		{"list"},
		{"archive", "add", "-to", filepath.Join(dir, "other"), runFile},
		{"archive", "list", archiveDir},
		{"site", "-o", filepath.Join(dir, "site"), archiveDir},
	} {
		var stdout, stderr bytes.Buffer
		if err := run(ctx, &stdout, &stderr, args); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v, want context.Canceled", strings.Join(args, " "), err)
		}
	}
}
