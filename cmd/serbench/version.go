package main

import (
	"context"
	"io"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/export"
	"github.com/serbench/serbench/report"
)

// cmdVersion prints one line for serbench (its module version from the
// build info: a release tag after `go install ...@vX`, "(devel)" from a
// checkout), one for Go, and one per codec library module with the version
// linked into this binary.
func cmdVersion(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("version", stderr)
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	return report.Versions(stdout, codec.ModuleVersion(export.SerbenchModule), codec.Libraries(all.Registry().All(), export.SerbenchModule))
}
