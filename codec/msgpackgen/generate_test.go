package msgpackgen

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/serbench/serbench/internal/gencheck"
)

// TestGeneratedCodeIsCurrent runs msgpackgen (pinned as a tool directive in
// go.mod, so nothing needs installing) on scenario/seeds.go as
// the go:generate line of msgpackgen.go does, into a temporary folder named
// like this package (msgpackgen names the package after its output
// folder), and checks that the result is byte for byte the committed file
// (gencheck.Verify).
func TestGeneratedCodeIsCurrent(t *testing.T) {
	const out = "resolver.msgpackgen.go"
	job := gencheck.NewJob("msgpackgen", "codec/msgpackgen", []string{out}, func(ctx context.Context, root, outDir string) error {
		dir := filepath.Join(t.TempDir(), "msgpackgen")
		if err := os.Mkdir(dir, 0o755); err != nil {
			return err
		}
		if err := gencheck.Go(ctx, root, "tool", "msgpackgen", "-input-file", filepath.Join(root, "scenario", "seeds.go"), "-output-dir", dir, "-strict"); err != nil {
			return err
		}
		b, err := os.ReadFile(filepath.Join(dir, out))
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(outDir, out), b, 0o644)
	})
	// msgpackgen formats its output with the go/format of the toolchain that
	// builds it; the committed file comes from Go 1.26's (Go 1.27 aligns
	// trailing comments differently, the code is the same).
	job.GoLine = "go1.26"
	gencheck.Verify(t, job, "")
}
