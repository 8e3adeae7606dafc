package evolve

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench/internal/gencheck"
)

// TestFlatBuffersGenerated regenerates packages fbv1 and fbv2 with the
// commands of their doc.go (flatc 2.0.8, then gofmt) into a temporary
// folder and checks that the result is the committed code, doc.go aside
// (gencheck.Verify: a missing or other flatc skips, and fails under CI=true).
func TestFlatBuffersGenerated(t *testing.T) {
	for _, v := range []string{"fbv1", "fbv2"} {
		t.Run(v, func(t *testing.T) {
			names, err := filepath.Glob(filepath.Join(v, "*.go"))
			if err != nil {
				t.Fatal(err)
			}
			var outputs []string
			for _, n := range names {
				if b := filepath.Base(n); b != "doc.go" {
					outputs = append(outputs, b)
				}
			}
			slices.Sort(outputs)
			schema := filepath.Join("schema", "flatbuffers", "evolve", "order_"+strings.TrimPrefix(v, "fb")+".fbs")
			job := gencheck.NewJob("evolve-"+v, "evolve/"+v, outputs, func(ctx context.Context, root, outDir string) error {
				return flatc(ctx, t.TempDir(), filepath.Join(root, schema), v, outDir)
			})
			gencheck.Verify(t, job, "")
		})
	}
}

// flatc compiles schema into tmp, gofmts the Go files of namespace ns and
// writes them into outDir.
func flatc(ctx context.Context, tmp, schema, ns, outDir string) error {
	bin, err := gencheck.Tool(ctx, "flatc", gencheck.FlatcVersion)
	if err != nil {
		return err
	}
	if err := gencheck.Exec(ctx, "", bin, "--go", "-o", tmp, schema); err != nil {
		return err
	}
	names, err := filepath.Glob(filepath.Join(tmp, ns, "*.go"))
	if err != nil {
		return err
	}
	for _, n := range names {
		if err := gencheck.Gofmt(n, outDir, filepath.Base(n)); err != nil {
			return err
		}
	}
	return nil
}
