package evolve

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/serbench/serbench/internal/gencheck"
)

// TestMsgpGenerated runs the go:generate line of types.go (msgp, pinned as
// a tool directive in go.mod) into a temporary folder and checks that the
// result is the committed types_gen.go (gencheck.Verify).
func TestMsgpGenerated(t *testing.T) {
	job := gencheck.NewJob("evolve-msgp", "evolve", []string{"types_gen.go"}, func(ctx context.Context, root, outDir string) error {
		gobin, err := exec.LookPath("go")
		if err != nil {
			return gencheck.MissingTool("the go command runs msgp: %v", err)
		}
		cmd := exec.CommandContext(ctx, gobin, "tool", "msgp", "-file", "types.go",
			"-o", filepath.Join(outDir, "types_gen.go"), "-io=false", "-tests=false")
		cmd.Dir = filepath.Join(root, "evolve")
		if msg, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %w\n%s", cmd, err, msg)
		}
		return nil
	})
	gencheck.Verify(t, job, "")
}
