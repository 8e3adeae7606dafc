package report

import (
	"fmt"
	"io"
	"runtime"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/document"
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
	head := document.Table{Header: []string{"serbench", serbench}, Rows: [][]string{{"go", fmt.Sprintf("%s %s/%s", runtime.Version(), runtime.GOOS, runtime.GOARCH)}}}
	lib := document.Table{Header: []string{"library", "version", "codecs"}}
	for _, l := range libs {
		v := l.Version
		if v == "" {
			v = "unknown"
		}
		lib.Rows = append(lib.Rows, []string{l.Module, v, fmt.Sprint(l.Codecs)})
	}
	ew := document.NewErrWriter(w)
	for _, l := range head.Aligned() {
		fmt.Fprintln(ew, l)
	}
	fmt.Fprintln(ew)
	for _, l := range lib.Aligned() {
		fmt.Fprintln(ew, l)
	}
	return ew.Err()
}
