package mus

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/serbench/serbench/internal/gencheck"
)

// TestGeneratedCodeIsCurrent runs internal/musgen (musgen-go, pinned in
// go.mod, so nothing needs installing) as the go:generate line of mus.go
// does, writing into a temporary folder, and checks that the result is byte
// for byte the committed file (gencheck.Verify).
func TestGeneratedCodeIsCurrent(t *testing.T) {
	const out = "mus-format.gen.go"
	job := gencheck.NewJob("mus", "codec/mus", []string{out}, func(ctx context.Context, root, outDir string) error {
		gobin, err := exec.LookPath("go")
		if err != nil {
			return gencheck.MissingTool("the go command runs musgen-go: %v", err)
		}
		cmd := exec.CommandContext(ctx, gobin, "run", "./internal/musgen", filepath.Join(outDir, out))
		cmd.Dir = filepath.Join(root, "codec", "mus")
		if msg, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %w\n%s", cmd, err, msg)
		}
		return nil
	})
	gencheck.Verify(t, job, "")
}
