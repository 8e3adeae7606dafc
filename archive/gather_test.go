package archive_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/archive"
)

// Gather reads folders and files, sorts by key, names the files it skips
// and refuses the same run twice.
func TestGather(t *testing.T) {
	ctx := context.Background()
	dir, other := t.TempDir(), t.TempDir()
	t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	later, err := archive.Parse(runJSON(t, t0.Add(time.Hour), "B CPU"), "later")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := archive.Add(ctx, dir, []*archive.Run{later}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "junk.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(other, "first.json")
	if err := os.WriteFile(file, runJSON(t, t0, "A CPU"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs, bad, err := archive.Gather(ctx, []string{dir, file})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].Key >= runs[1].Key || len(bad) != 1 || !strings.Contains(bad[0].Error(), "junk.json") {
		t.Fatalf("runs %d (sorted: %v), bad %v", len(runs), len(runs) == 2 && runs[0].Key < runs[1].Key, bad)
	}
	var list bytes.Buffer
	if err := archive.WriteList(&list, runs); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(list.String()), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[0], "key") {
		t.Errorf("list:\n%s", list.String())
	}
	if _, _, err := archive.Gather(ctx, []string{file, file}); err == nil || !strings.Contains(err.Error(), "same run") {
		t.Errorf("the same file twice: err %v", err)
	}
	if _, _, err := archive.Gather(ctx, []string{t.TempDir()}); err == nil || !strings.Contains(err.Error(), "holds no runs") {
		t.Errorf("an empty folder: err %v", err)
	}
}
