package report_test

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/report"
)

// Versions writes serbench's version, Go's and one aligned row per
// library, with "unknown" for what the build info lacks.
func TestVersions(t *testing.T) {
	var buf bytes.Buffer
	libs := []codec.Library{{Module: "github.com/fxamacker/cbor/v2", Version: "v2.9.0", Codecs: []string{"cbor"}}, {Module: "example.com/x", Codecs: []string{"x", "y"}}}
	if err := report.Versions(&buf, "", libs); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"serbench  unknown (no build info)",
		"go        " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		"",
		"library                       version  codecs",
		"github.com/fxamacker/cbor/v2  v2.9.0   [cbor]",
		"example.com/x                 unknown  [x y]",
	}
	if got := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Versions wrote\n%s\nwant\n%s", buf.String(), strings.Join(want, "\n"))
	}
}
