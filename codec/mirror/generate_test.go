package mirror

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/internal/gencheck"
)

// generated lists the files that the go:generate lines of types.go write.
var generated = []string{"types_easyjson.go", "types_ffjson.go", "types_gen.go"}

// TestGeneratedCodeIsCurrent copies the module's Go sources into a temporary
// folder, runs go generate on this package there (easyjson, ffjson and msgp,
// all pinned as tool directives in go.mod, so nothing needs installing) and
// checks that the result is byte for byte the committed files
// (gencheck.Verify). It takes some seconds: each generator builds and runs
// a helper program.
func TestGeneratedCodeIsCurrent(t *testing.T) {
	job := gencheck.NewJob("mirror", "codec/mirror", generated, func(ctx context.Context, root, outDir string) error {
		gobin, err := exec.LookPath("go")
		if err != nil {
			return gencheck.MissingTool("the go command runs the generators: %v", err)
		}
		tmp := t.TempDir()
		if err := copyModule(root, tmp); err != nil {
			return err
		}
		cmd := exec.CommandContext(ctx, gobin, "generate", "./codec/mirror")
		cmd.Dir = tmp
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
		if msg, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go generate ./codec/mirror: %v\n%s", err, msg)
		}
		for _, name := range generated {
			b, err := os.ReadFile(filepath.Join(tmp, "codec", "mirror", name))
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(outDir, name), b, 0o644); err != nil {
				return err
			}
		}
		return nil
	})
	gencheck.Verify(t, job, "")
}

// copyModule copies go.mod, go.sum, every Go source file but tests, and
// every shell script (ffjson-go.sh), from the module rooted at src to dst,
// keeping the folder layout and the scripts' mode.
func copyModule(src, dst string) error {
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		name := d.Name()
		mode := fs.FileMode(0o644)
		switch {
		case name == "go.mod" || name == "go.sum":
		case strings.HasSuffix(name, ".sh"):
			mode = 0o755
		case strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go"):
		default:
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, mode)
	})
	if err != nil {
		return fmt.Errorf("copying the module to %s: %w", dst, err)
	}
	return nil
}
