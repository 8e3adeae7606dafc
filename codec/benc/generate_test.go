package benc

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/internal/gencheck"
)

// TestGeneratedCodeIsCurrent runs bencgen (pinned as a tool directive in
// go.mod, so nothing needs installing) and gofmt as the go:generate lines of
// benc.go do, in a temporary copy of the folder layout (bencgen writes the
// schema's path into its output, and rewrites the schema's meta line), and
// checks that the result is byte for byte the committed file
// (gencheck.Verify) and that the schema's meta line was current.
func TestGeneratedCodeIsCurrent(t *testing.T) {
	const out = "serbench.go"
	job := gencheck.NewJob("benc", "codec/benc/bencgen", []string{out}, func(ctx context.Context, root, outDir string) error {
		gobin, err := exec.LookPath("go")
		if err != nil {
			return gencheck.MissingTool("the go command builds bencgen: %v", err)
		}
		lookup := exec.CommandContext(ctx, gobin, "tool", "-n", "bencgen")
		lookup.Dir = root
		bin, err := lookup.Output()
		if err != nil {
			return fmt.Errorf("go tool -n bencgen: %w", err)
		}
		tmp := t.TempDir()
		schema := filepath.Join(root, "schema", "benc", "serbench.benc")
		committed, err := os.ReadFile(schema)
		if err != nil {
			return err
		}
		copied := filepath.Join(tmp, "schema", "benc", "serbench.benc")
		dir := filepath.Join(tmp, "codec", "benc")
		for _, d := range []string{filepath.Dir(copied), dir} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
		}
		if err := os.WriteFile(copied, committed, 0o644); err != nil {
			return err
		}
		if err := gencheck.Exec(ctx, dir, strings.TrimSpace(string(bin)), "--in", "../../schema/benc/serbench.benc", "--lang", "go", "--out", "bencgen", "--file", "..."); err != nil {
			return err
		}
		if rewritten, err := os.ReadFile(copied); err != nil {
			return err
		} else if !bytes.Equal(rewritten, committed) {
			return fmt.Errorf("bencgen rewrote the meta line of schema/benc/serbench.benc: run go generate ./codec/benc and commit the schema")
		}
		return gencheck.Gofmt(filepath.Join(dir, "bencgen", out), outDir, out)
	})
	gencheck.Verify(t, job, "")
}
