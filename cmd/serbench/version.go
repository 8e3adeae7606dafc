package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"text/tabwriter"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
)

// modulePath is serbench's own module, whose version the build info records.
const modulePath = "github.com/serbench/serbench"

func init() {
	register("version", "print serbench's version, the Go version and every codec library's version", cmdVersion)
}

// cmdVersion prints one line for serbench (its module version from the
// build info: a release tag after `go install ...@vX`, "(devel)" from a
// checkout), one for Go, and one per codec library module with the version
// linked into this binary.
func cmdVersion(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("version", stderr)
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	v := codec.ModuleVersion(modulePath)
	if v == "" {
		v = "unknown (no build info)"
	}
	// tabwriter holds every line until Flush, whose error is the only one.
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "serbench\t%s\n", v)
	fmt.Fprintf(tw, "go\t%s %s/%s\n\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintln(tw, "library\tversion\tcodecs")
	for _, l := range codec.Libraries(all.Registry().All(), modulePath) {
		v := l.Version
		if v == "" {
			v = "unknown"
		}
		fmt.Fprintf(tw, "%s\t%s\t%v\n", l.Module, v, l.Codecs)
	}
	return tw.Flush()
}
