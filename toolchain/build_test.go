package toolchain_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"

	"github.com/serbench/serbench/toolchain"
)

// moduleProxy writes a module proxy in a folder (GOPROXY=file://...)
// serving example.com/lib at each of versions; each version's package
// has a constant Version that names it.
func moduleProxy(t *testing.T, versions ...string) string {
	t.Helper()
	proxy := t.TempDir()
	at := filepath.Join(proxy, "example.com", "lib", "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	const gomod = "module example.com/lib\n\ngo 1.22\n"
	for _, v := range versions {
		src := t.TempDir()
		writeFile(t, filepath.Join(src, "go.mod"), gomod)
		writeFile(t, filepath.Join(src, "lib.go"), "package lib\n\nconst Version = \""+v+"\"\n")
		var zip bytes.Buffer
		if err := modzip.CreateFromDir(&zip, module.Version{Path: "example.com/lib", Version: v}, src); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(at, v+".zip"), zip.String())
		writeFile(t, filepath.Join(at, v+".mod"), gomod)
		writeFile(t, filepath.Join(at, v+".info"), `{"Version":"`+v+`","Time":"2026-01-02T03:04:05Z"}`)
	}
	writeFile(t, filepath.Join(at, "list"), strings.Join(versions, "\n")+"\n")
	return proxy
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGoBuilderModule builds a scratch module that prints the version of
// the library it links, against a module proxy in a folder: with no
// Module it links go.mod's version, with one the version asked for, and
// the module's go.mod and go.sum stay as they were; a version the proxy
// does not have fails the build in one line naming it.
func TestGoBuilderModule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command on a scratch module (a few seconds)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("go is not on PATH: %v", err)
	}
	// A module cache of its own, writable so that TempDir can remove it,
	// and the go command on PATH as it is: nothing to fetch but the
	// proxy's library.
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOFLAGS", "-mod=mod -modcacherw")
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(moduleProxy(t, "v1.0.0", "v1.1.0")))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOTOOLCHAIN", "local")
	t.Setenv("GOWORK", "off")

	app := t.TempDir()
	writeFile(t, filepath.Join(app, "go.mod"), "module example.com/app\n\ngo 1.22\n\nrequire example.com/lib v1.0.0\n")
	writeFile(t, filepath.Join(app, "main.go"), "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/lib\"\n)\n\nfunc main() { fmt.Print(lib.Version) }\n")
	tidy := exec.Command("go", "mod", "tidy")
	tidy.Dir = app
	if out, err := tidy.CombinedOutput(); err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, out)
	}
	before := map[string][]byte{}
	for _, f := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(app, f))
		if err != nil {
			t.Fatal(err)
		}
		before[f] = data
	}

	b := toolchain.GoBuilder{Dir: app, Package: "."}
	bin := t.TempDir()
	for _, tc := range []struct {
		spec toolchain.Spec
		want string
	}{
		{toolchain.Spec{}, "v1.0.0"},
		{toolchain.Spec{Module: toolchain.Module{Path: "example.com/lib", Version: "v1.1.0"}}, "v1.1.0"},
	} {
		exe := filepath.Join(bin, strings.ReplaceAll(tc.want, ".", "_"))
		if err := b.Build(context.Background(), tc.spec, exe); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(exe).Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != tc.want {
			t.Errorf("build %q links lib %s, want %s", tc.spec, out, tc.want)
		}
	}
	for f, data := range before {
		if now, _ := os.ReadFile(filepath.Join(app, f)); !bytes.Equal(now, data) {
			t.Errorf("%s changed:\n%s\nwas:\n%s", f, now, data)
		}
	}

	err := b.Build(context.Background(), toolchain.Spec{Module: toolchain.Module{Path: "example.com/lib", Version: "v1.2.0"}}, filepath.Join(bin, "missing"))
	if err == nil || !strings.Contains(err.Error(), "toolchain lib@v1.2.0: go get example.com/lib@v1.2.0 failed") || strings.Contains(err.Error(), "\n") {
		t.Errorf("missing version: %v, want one line naming it", err)
	}
}
