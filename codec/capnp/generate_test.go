package capnp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/internal/gencheck"
)

// capnpVersion is the capnp that compiled package capnpb (Debian 12's
// capnproto package); another version may encode the embedded schema
// differently.
const capnpVersion = "Cap'n Proto version 0.9.2"

// TestGeneratedCodeIsCurrent regenerates package capnpb with the command of
// the go:generate line in capnp.go (capnp compile with capnpc-go, pinned as
// a tool directive in go.mod, and go.capnp from the pinned module) into a
// temporary folder and checks that the result is byte for byte the
// committed file (gencheck.Verify: a missing or other capnp skips, and
// fails under CI=true).
func TestGeneratedCodeIsCurrent(t *testing.T) {
	const out = "serbench.capnp.go"
	job := gencheck.NewJob("capnp", "codec/capnp/capnpb", []string{out}, func(ctx context.Context, root, outDir string) error {
		bin, err := gencheck.Tool(ctx, "capnp", capnpVersion)
		if err != nil {
			return err
		}
		std, err := goOutput(ctx, root, "list", "-m", "-f", "{{.Dir}}", module)
		if err != nil {
			return err
		}
		plugin, err := goOutput(ctx, root, "tool", "-n", "capnpc-go")
		if err != nil {
			return err
		}
		tmp := t.TempDir()
		if err := gencheck.Exec(ctx, filepath.Join(root, "schema", "capnp"), bin, "compile", "-I", filepath.Join(std, "std"), "-o"+plugin+":"+tmp, "serbench.capnp"); err != nil {
			return err
		}
		b, err := os.ReadFile(filepath.Join(tmp, out))
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(outDir, out), b, 0o644)
	})
	// capnpc-go formats its output with the go/format of the Go that builds
	// it; the committed file comes from Go 1.26's.
	job.GoLine = "go1.26"
	gencheck.Verify(t, job, "")
}

// goOutput runs the go command in dir and returns its trimmed output.
func goOutput(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}
