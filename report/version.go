package report

import (
	"fmt"
	"io"
	"runtime"
	"text/tabwriter"

	"github.com/serbench/serbench/codec"
)

// Versions writes what serbench version prints: serbench's own module
// version (from the build info, codec.ModuleVersion: a release tag after
// `go install ...@vX`, "(devel)" from a checkout; "" is written "unknown
// (no build info)"), the Go version and platform of this binary, and one
// aligned row per library of libs (codec.Libraries): its module, the
// version linked into this binary ("" is "unknown") and its codecs.
func Versions(w io.Writer, serbench string, libs []codec.Library) error {
	if serbench == "" {
		serbench = "unknown (no build info)"
	}
	// tabwriter holds every line until Flush, whose error is the only one.
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "serbench\t%s\n", serbench)
	fmt.Fprintf(tw, "go\t%s %s/%s\n\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintln(tw, "library\tversion\tcodecs")
	for _, l := range libs {
		v := l.Version
		if v == "" {
			v = "unknown"
		}
		fmt.Fprintf(tw, "%s\t%s\t%v\n", l.Module, v, l.Codecs)
	}
	return tw.Flush()
}
