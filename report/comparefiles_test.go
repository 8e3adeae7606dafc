package report_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/results"
)

// writeDoc writes doc as JSON to name in dir and returns its path.
func writeDoc(t *testing.T, dir, name string, doc *results.Run) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := results.WriteJSON(f, doc); err != nil {
		t.Fatal(err)
	}
	return path
}

// CompareFiles compares each side with the first, lists runs of other
// environments or refuses them (StrictEnv), and refuses an empty name.
func TestCompareFiles(t *testing.T) {
	dir := t.TempDir()
	old := writeDoc(t, dir, "old.json", fixture())
	newDoc := newFixture()
	newDoc.Env.Go = "go1.27.4"
	newer := writeDoc(t, dir, "new.json", newDoc)
	ctx := context.Background()

	set, err := compare.CompareFiles(ctx, []string{old, old + "," + old, newer}, compare.CompareFilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Comparisons) != 2 || set.Comparisons[0].NewName != old+","+old || set.Comparisons[1].NewName != newer {
		t.Errorf("comparisons = %d, want 2, of each new side by its text", len(set.Comparisons))
	}
	if len(set.EnvDiffs) != 1 || set.EnvDiffs[0].New != newer || set.EnvDiffs[0].Diff.Field != "env.go" {
		t.Errorf("EnvDiffs = %v, want the go version of %s", set.EnvDiffs, newer)
	}

	var ed *compare.EnvDiffError
	if _, err := compare.CompareFiles(ctx, []string{old, newer}, compare.CompareFilesOptions{StrictEnv: true}); !errors.As(err, &ed) || ed.Old != old {
		t.Errorf("StrictEnv: err = %v, want an *EnvDiffError from %s", err, old)
	}
	if _, err := compare.CompareFiles(ctx, []string{old, old + ",," + old}, compare.CompareFilesOptions{}); !errors.Is(err, compare.ErrEmptyName) {
		t.Errorf("empty name: err = %v, want ErrEmptyName", err)
	}
	if _, err := compare.CompareFiles(ctx, []string{old}, compare.CompareFilesOptions{}); err == nil {
		t.Error("one side: no error")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := compare.CompareFiles(cancelled, []string{old, newer}, compare.CompareFilesOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

// RegressionLines names the new side before each regression (here cells
// that no longer round-trip).
func TestRegressionLines(t *testing.T) {
	lossy := fixture()
	for i := range lossy.Results {
		lossy.Results[i].OK = false
	}
	c, err := compare.Compare(fixture(), lossy, compare.CompareOptions{OldName: "a", NewName: "b.json"})
	if err != nil {
		t.Fatal(err)
	}
	lines, err := compare.RegressionLines([]*compare.Comparison{c}, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "b.json: codec=") {
		t.Errorf("lines = %q, want regressions of b.json", lines)
	}
	if _, err := compare.RegressionLines([]*compare.Comparison{c}, -1); err == nil {
		t.Error("negative threshold: no error")
	}
}
