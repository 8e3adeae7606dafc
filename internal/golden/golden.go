// Package golden compares test output with committed files under testdata/.
// Only tests import it: it registers the -update flag, which rewrites the
// files instead of comparing (`go test ./report -update`, then review the
// diff before committing it).
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strconv"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ instead of comparing with them")

// Update reports whether -update was given, for tests that regenerate
// inputs of their own as well.
func Update() bool { return *update }

// Check compares got with the file at path, or writes got there under
// -update. A missing file or a difference fails t and names the file.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (run go test with -update after checking the change): %s", path, FirstDiff(want, got))
	}
}

// FirstDiff describes where got first differs from want: the 1-based line
// number, that line of each (quoted, so that spaces and control characters
// show), and both lengths in bytes. It is empty when they are equal.
func FirstDiff(want, got []byte) string {
	if bytes.Equal(want, got) {
		return ""
	}
	wl, gl := bytes.SplitAfter(want, []byte("\n")), bytes.SplitAfter(got, []byte("\n"))
	i := 0
	for i < len(wl) && i < len(gl) && bytes.Equal(wl[i], gl[i]) {
		i++
	}
	line := func(ls [][]byte) string {
		if i >= len(ls) || len(ls[i]) == 0 {
			return "end of file"
		}
		return strconv.Quote(string(ls[i]))
	}
	return fmt.Sprintf("first difference at line %d:\n  want %s\n  got  %s\n(%d bytes expected, %d got)", i+1, line(wl), line(gl), len(want), len(got))
}
