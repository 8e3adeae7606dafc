package bebop

import (
	"context"
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
		tmp := filepath.Join(t.TempDir(), out)
		if err := gencheck.Go(ctx, root, "tool", "bebopc-go", "-i", filepath.Join(root, "schema", "bebop", "serbench.bop"),
			"-o", tmp, "-package", "bebopgen"); err != nil {
			return err
		}
		return gencheck.Gofmt(tmp, outDir, out)
	})
	gencheck.Verify(t, job, "")
}
