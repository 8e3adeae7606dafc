package evolve

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/serbench/serbench/internal/gencheck"
)

// TestMsgpGenerated runs the go:generate line of types.go (msgp, pinned as
// a tool directive in go.mod) into a temporary folder and checks that the
// result is the committed types_gen.go (gencheck.Verify).
func TestMsgpGenerated(t *testing.T) {
	job := gencheck.NewJob("evolve-msgp", "evolve", []string{"types_gen.go"}, func(ctx context.Context, root, outDir string) error {
		return gencheck.Go(ctx, filepath.Join(root, "evolve"), "tool", "msgp", "-file", "types.go",
			"-o", filepath.Join(outDir, "types_gen.go"), "-io=false", "-tests=false")
	})
	gencheck.Verify(t, job, "")
}
