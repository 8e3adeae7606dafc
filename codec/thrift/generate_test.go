package thrift

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/serbench/serbench/internal/gencheck"
)

// thriftVersion is the Thrift compiler that generated package thriftgen
// (Debian 12's thrift-compiler); other versions write other code.
const thriftVersion = "Thrift version 0.17.0"

// generated lists the files the compiler writes into thriftgen.
var generated = []string{"GoUnusedProtection__.go", "serbench-consts.go", "serbench.go"}

// TestGeneratedCodeIsCurrent regenerates package thriftgen with
// the go:generate lines of thrift.go (the Thrift compiler, then gofmt) into a
// temporary folder and checks that the result is byte for byte the
// committed files (gencheck.Verify: a missing or other compiler skips, and
// fails under CI=true).
func TestGeneratedCodeIsCurrent(t *testing.T) {
	job := gencheck.NewJob("thrift", "codec/thrift/thriftgen", generated, func(ctx context.Context, root, outDir string) error {
		bin, err := gencheck.Tool(ctx, "thrift", thriftVersion)
		if err != nil {
			return err
		}
		tmp := t.TempDir()
		if err := gencheck.Exec(ctx, "", bin, "--gen", "go:skip_remote,package_prefix="+gencheckModule+"/codec/thrift/",
			"-out", tmp, filepath.Join(root, "schema", "thrift", "serbench.thrift")); err != nil {
			return err
		}
		for _, name := range generated {
			if err := gencheck.Gofmt(filepath.Join(tmp, "thriftgen", name), outDir, name); err != nil {
				return err
			}
		}
		return nil
	})
	gencheck.Verify(t, job, "")
}

const gencheckModule = "github.com/serbench/serbench"
