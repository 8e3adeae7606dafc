package bebop

import (
	"context"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/serbench/serbench/internal/gencheck"
)

// TestGeneratedCodeIsCurrent runs bebopc-go (pinned as a tool directive in
// go.mod, so nothing needs installing) on schema/bebop/serbench.bop and
// gofmt, as the go:generate lines of bebop.go do, into a temporary folder,
// and checks that the result is byte for byte the committed file
// (gencheck.Verify).
func TestGeneratedCodeIsCurrent(t *testing.T) {
	const out = "serbench.go"
	job := gencheck.NewJob("bebop", "codec/bebop/bebopgen", []string{out}, func(ctx context.Context, root, outDir string) error {
		gobin, err := exec.LookPath("go")
		if err != nil {
			return gencheck.MissingTool("the go command runs bebopc-go: %v", err)
		}
		tmp := filepath.Join(t.TempDir(), out)
		cmd := exec.CommandContext(ctx, gobin, "tool", "bebopc-go", "-i", filepath.Join(root, "schema", "bebop", "serbench.bop"),
			"-o", tmp, "-package", "bebopgen")
		cmd.Dir = root
		if msg, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %w\n%s", cmd, err, msg)
		}
		src, err := os.ReadFile(tmp)
		if err != nil {
			return err
		}
		formatted, err := format.Source(src)
		if err != nil {
			return fmt.Errorf("gofmt %s: %w", out, err)
		}
		return os.WriteFile(filepath.Join(outDir, out), formatted, 0o644)
	})
	gencheck.Verify(t, job, "")
}
