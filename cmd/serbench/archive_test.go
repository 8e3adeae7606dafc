package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestArchiveCommand(t *testing.T) {
	dir := t.TempDir()
	archiveDir := filepath.Join(dir, "results")
	a, b := gateRun(1, 1), gateRun(2, 1)
	b.Env.Started = b.Env.Started.Add(time.Hour)
	if err := writeFile(filepath.Join(dir, "a.json"), "json", a); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(filepath.Join(dir, "b.json"), "json", b); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(filepath.Join(dir, "b.txt"), "benchfmt", b); err != nil {
		t.Fatal(err)
	}
	do := func(args ...string) (string, string, error) {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, append([]string{"archive"}, args...))
		return stdout.String(), stderr.String(), err
	}
	// A benchfmt file among the inputs: one line naming it, exit 1, nothing added.
	_, _, err := do("add", filepath.Join(dir, "a.json"), filepath.Join(dir, "b.txt"), "-to", archiveDir)
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "b.txt") || strings.Contains(err.Error(), "\n") {
		t.Errorf("benchfmt input: %v", err)
	}
	if _, err := os.Stat(archiveDir); err == nil {
		t.Error("the archive was created for a refused add")
	}
	stdout, _, err := do("add", filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"), "-to", archiveDir)
	if err != nil || strings.Count(stdout, "added ") != 2 {
		t.Fatalf("add: %v\n%s", err, stdout)
	}
	if _, _, err := do("add", "-to", archiveDir, filepath.Join(dir, "a.json")); err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "duplicate key") {
		t.Errorf("re-add: %v", err)
	}
	stdout, _, err = do("list", archiveDir)
	if err != nil || strings.Count(stdout, "go1.26.8_linux-amd64") != 2 {
		t.Errorf("list: %v\n%s", err, stdout)
	}
	if _, _, err := do("add", filepath.Join(dir, "a.json")); err == nil || exitCode(err) != 2 {
		t.Errorf("no -to: %v", err)
	}

	// A truncated file in the archive: list names it and exits 1 after the
	// runs; site skips and names it and builds from the rest.
	if err := os.WriteFile(filepath.Join(archiveDir, "cut.json"), []byte(`{"schema": "serbench/v1", "env": {`), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := do("list", archiveDir)
	if err == nil || strings.Count(stdout, "go1.26.8_linux-amd64") != 2 || !strings.Contains(stderr, "cut.json") {
		t.Errorf("list with a truncated file: %v\n%s%s", err, stdout, stderr)
	}
	var siteOut, siteErr bytes.Buffer
	out := filepath.Join(dir, "site")
	if err := run(context.Background(), &siteOut, &siteErr, []string{"site", "-o", out, archiveDir}); err != nil ||
		!strings.Contains(siteErr.String(), "skipped") || !strings.Contains(siteErr.String(), "cut.json") || !strings.Contains(siteErr.String(), "2 runs") {
		t.Errorf("site with a truncated file: %v\n%s", err, siteErr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "data.js")); err != nil {
		t.Error(err)
	}
}
