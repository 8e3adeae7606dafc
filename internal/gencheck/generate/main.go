// Command generate runs one job of package gencheck, writing the generated
// files into the job's package of the current module. It is meant for
// `//go:generate go run github.com/serbench/serbench/internal/gencheck/generate JOB`.
//
// Usage: generate JOB   (JOB is one of gencheck.Jobs: protobuf,
// protobuf-opaque, protobuf-convert, gogoproto, gogoproto-convert, thrift-convert, bebop-convert,
// benc-convert, wire-bindings, evolve-v1, evolve-v2)
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/serbench/serbench/internal/gencheck"
)

func main() {
	if err := run(context.Background(), os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "generate:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: generate JOB (got %d arguments)", len(args))
	}
	job, err := gencheck.Lookup(args[0])
	if err != nil {
		return err
	}
	root, err := gencheck.ModuleRoot(ctx)
	if err != nil {
		return err
	}
	return job.Run(ctx, root, filepath.Join(root, filepath.FromSlash(job.Dir)))
}
