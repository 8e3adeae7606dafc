package mus

import (
	"context"
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
		return gencheck.Go(ctx, filepath.Join(root, "codec", "mus"), "run", "./internal/musgen", filepath.Join(outDir, out))
	})
	gencheck.Verify(t, job, "")
}
