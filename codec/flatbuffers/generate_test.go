package flatbuffers

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/serbench/serbench/internal/gencheck"
)

// TestGeneratedCodeIsCurrent regenerates package fb from the schema with the
// commands of fb/doc.go (flatc, then gofmt) into a temporary folder and
// checks that the result is byte for byte the committed fb folder, but for
// doc.go, which is written by hand (gencheck.Verify: a missing or other
// flatc skips, and fails under CI=true).
func TestGeneratedCodeIsCurrent(t *testing.T) {
	committed := goFiles(t, "fb")
	delete(committed, "doc.go")
	job := gencheck.NewJob("flatbuffers", "codec/flatbuffers/fb", sortedKeys(committed), func(ctx context.Context, root, outDir string) error {
		flatc, err := gencheck.Tool(ctx, "flatc", gencheck.FlatcVersion)
		if err != nil {
			return err
		}
		tmp := t.TempDir()
		if err := gencheck.Exec(ctx, "", flatc, "--go", "--gen-object-api", "-o", tmp, filepath.Join(root, "schema", "flatbuffers", "serbench.fbs")); err != nil {
			return err
		}
		for name := range goFiles(t, filepath.Join(tmp, "fb")) {
			if err := gencheck.Gofmt(filepath.Join(tmp, "fb", name), outDir, name); err != nil {
				return err
			}
		}
		return nil
	})
	gencheck.Verify(t, job, "")
}

func goFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	files := make(map[string][]byte, len(names))
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(n)] = b
	}
	return files
}

func sortedKeys(m map[string][]byte) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
