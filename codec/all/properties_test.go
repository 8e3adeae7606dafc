package all_test

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
)

// serbenchModule is this repository's module: its codecs (wire, memmove)
// are judged by their adapter's package.
const serbenchModule = "github.com/serbench/serbench"

// TestUnsafe checks every codec's Info.Unsafe against the build's import
// graph (go list -deps ./codec/all): true exactly when a package of the
// codec's module that this build links imports package unsafe (for
// serbench's own codecs: the adapter's package, codec/<ID's first part>).
func TestUnsafe(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}|{{.ImportPath}}|{{join .Imports \" \"}}", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err) // no go command (the tests run under an emulator, say)
	}
	unsafeModules, unsafePkgs := map[string]bool{}, map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(line, "|", 3)
		if len(f) != 3 || !strings.Contains(" "+f[2]+" ", " unsafe ") {
			continue
		}
		unsafeModules[f[0]], unsafePkgs[f[1]] = true, true
	}
	if len(unsafeModules) == 0 {
		t.Fatal("no module imports unsafe: the go list output was not read")
	}
	for _, c := range all.Registry().All() {
		info := c.Info()
		var want bool
		switch info.Module {
		case "std":
		case serbenchModule:
			pkg, _, _ := strings.Cut(info.ID, "/")
			want = unsafePkgs[serbenchModule+"/codec/"+pkg]
		default:
			want = unsafeModules[info.Module]
		}
		if info.Unsafe != want {
			t.Errorf("%s (module %s): Unsafe %v, but the import graph says %v", info.ID, info.Module, info.Unsafe, want)
		}
	}
}

// TestAPI checks that every codec states its API kind, and that the
// parse-only codecs, and only they, decode into a document tree and are of
// Kind parser: Info states parse-only three ways (ParseOnly, APITree,
// Parser), and this test holds them to one fact.
func TestAPI(t *testing.T) {
	for _, c := range all.Registry().All() {
		info := c.Info()
		switch {
		case info.API != codec.APITyped && info.API != codec.APIAny && info.API != codec.APITree:
			t.Errorf("%s: API %q, want typed, any or tree", info.ID, info.API)
		case info.ParseOnly != (info.API == codec.APITree):
			t.Errorf("%s: API %q with ParseOnly %v", info.ID, info.API, info.ParseOnly)
		case info.ParseOnly != (info.Kind == codec.Parser):
			t.Errorf("%s: Kind %q with ParseOnly %v", info.ID, info.Kind, info.ParseOnly)
		}
	}
}

// TestUpkeep checks every codec's upkeep data (Info.LastRelease,
// Info.Archived): every library outside the standard library and
// serbench states a last release, not older than the date of the version
// this build links (go list -m, read from the module cache), so that
// upgrading a module without updating it fails here.
func TestUpkeep(t *testing.T) {
	for _, c := range all.Registry().All() {
		info := c.Info()
		switch info.Module {
		case "std", serbenchModule:
			if info.LastRelease != "" || info.Archived {
				t.Errorf("%s: LastRelease %q, Archived %v on serbench's or the standard library's codec", info.ID, info.LastRelease, info.Archived)
			}
			continue
		}
		if _, err := time.Parse(time.DateOnly, info.LastRelease); err != nil {
			t.Errorf("%s: LastRelease %q is not a date YYYY-MM-DD", info.ID, info.LastRelease)
			continue
		}
		if testing.Short() {
			continue
		}
		out, err := exec.Command("go", "list", "-m", "-f", "{{if .Time}}{{.Time.UTC.Format \"2006-01-02\"}}{{end}}", info.Module).Output()
		if err != nil {
			t.Skipf("go list -m: %v", err) // no go command (under an emulator, say)
		}
		if linked := strings.TrimSpace(string(out)); linked != "" && info.LastRelease < linked {
			t.Errorf("%s: LastRelease %s is older than the linked version of %s, released %s: update it", info.ID, info.LastRelease, info.Module, linked)
		}
	}
}
