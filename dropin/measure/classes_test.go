package measure_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/dropin/measure"
	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/probe"
)

// TestMain also serves the child processes of TestClasses's isolated
// probes: probe.Isolator starts this test binary in probe.ChildRole.
func TestMain(m *testing.M) {
	serve := func(spec string) error { return probe.Child(os.Stdout, spec, all.Registry().Lookup) }
	os.Exit(childproc.RunTests(m, map[string]childproc.Role{probe.ChildRole: serve}))
}

// TestClasses measures every codec of codec/all against the reference of
// its format and checks the classes, with the probes that differ, against
// testdata/classes.txt (-update rewrites it). The file is made on
// linux/amd64 with the toolchain of go.mod: sonic switches engine by
// architecture, and encoding/json's engine by toolchain.
func TestClasses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every probe through 20 codecs, some in child processes")
	}
	if runtime.GOARCH != "amd64" || childproc.RaceEnabled {
		t.Skip("the classes are recorded for amd64 without -race")
	}
	// encoding/json is the reference, and its behaviour is the
	// toolchain's: the file names the Go release it was recorded with.
	head := fmt.Sprintf("# recorded with %s on linux/amd64\n", goRelease())
	if old, err := os.ReadFile("testdata/classes.txt"); err == nil && !golden.Update() && !strings.HasPrefix(string(old), head) {
		first, _, _ := strings.Cut(string(old), "\n")
		t.Skipf("testdata/classes.txt says %q, this is %s: run with -update on that release to compare", first, goRelease())
	}
	// Codecs that decode a time in time.Local show it in their values:
	// fix it as on a machine with TZ unset (the child processes of the
	// isolated probes handle no time).
	oldLocal := time.Local
	time.Local = time.FixedZone("Local", 0)
	t.Cleanup(func() { time.Local = oldLocal })
	iso := probe.Isolator{}
	classes, err := measure.Classes(context.Background(), all.Registry().All(), all.Registry().Lookup, measure.Options{Isolate: iso.Cell})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 0, len(classes))
	for id := range classes {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var b strings.Builder
	b.WriteString(head)
	for _, id := range ids {
		d := classes[id]
		fmt.Fprintf(&b, "%s: %s of %s (%d probes compared)\n", id, d.Class, d.Of, d.Compared)
		for _, s := range d.Bytes {
			// The scenario only: where unsorted map keys first differ
			// changes from run to run.
			id, _, _ := strings.Cut(s, ":")
			fmt.Fprintf(&b, "  bytes differ on %s\n", id)
		}
		for _, p := range d.Probes {
			fmt.Fprintf(&b, "  probe %s: %s, got %s\n", p.Probe, p.Ref, p.Got)
		}
	}
	golden.Check(t, "testdata/classes.txt", []byte(b.String()))
}

// goRelease is the Go release of this toolchain, "go1.26" of "go1.26.8".
func goRelease() string {
	v := runtime.Version()
	if i := strings.Index(v, "."); i >= 0 {
		if j := strings.Index(v[i+1:], "."); j >= 0 {
			return v[:i+1+j]
		}
	}
	return v
}
