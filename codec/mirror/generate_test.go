package mirror

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// generated lists the files that the go:generate lines of types.go write.
var generated = []string{"types_easyjson.go", "types_ffjson.go", "types_gen.go"}

// TestGeneratedCodeIsCurrent copies the module's Go sources into a temporary
// folder, runs go generate on this package there (easyjson, ffjson and msgp,
// all pinned as tool directives in go.mod, so nothing needs installing) and
// checks that the result is byte for byte the committed files. It takes some
// seconds (each generator builds and runs a helper program); -short skips
// it, except when the environment variable CI is "true".
func TestGeneratedCodeIsCurrent(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("-short: skipping the regeneration of easyjson, ffjson and msgp code")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to run the generators: %v", err)
	}
	root := filepath.Join("..", "..")
	tmp := t.TempDir()
	copyModule(t, root, tmp)

	cmd := exec.Command(gobin, "generate", "./codec/mirror")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go generate ./codec/mirror: %v\n%s", err, msg)
	}
	for _, name := range generated {
		want, err := os.ReadFile(filepath.Join(tmp, "codec", "mirror", name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want, got) {
			t.Errorf("%s differs from what its generator writes: run go generate ./codec/mirror", name)
		}
	}
}

// copyModule copies go.mod, go.sum, every Go source file but tests, and
// every shell script (ffjson-go.sh), from the module rooted at src to dst,
// keeping the folder layout and the scripts' mode.
func copyModule(t *testing.T, src, dst string) {
	t.Helper()
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
		t.Fatalf("copying the module to %s: %v", dst, err)
	}
}
