package scaffold

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// The generator versions init pins are the ones serbench itself builds its
// generated code with (for flatbuffers, the runtime flatc 2.0.8's code needs).
func TestVersionsMatchGoMod(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, g := range generators {
		found := false
		for _, r := range mf.Require {
			if r.Mod.Path == g.module {
				found = true
				if r.Mod.Version != g.version {
					t.Errorf("%s: init pins %s, go.mod has %s", name, g.version, r.Mod.Version)
				}
			}
		}
		if !found {
			t.Errorf("%s: %s not in go.mod", name, g.module)
		}
	}
}

// ParseCodegen: the names in order, an unknown one and vtprotobuf without
// protobuf refused.
func TestParseCodegen(t *testing.T) {
	got, err := ParseCodegen(" protobuf, vtprotobuf,,flatbuffers")
	if err != nil || len(got) != 3 || got[0] != "protobuf" || got[2] != "flatbuffers" {
		t.Errorf("ParseCodegen = %q, %v", got, err)
	}
	for _, bad := range []string{"capnp", "vtprotobuf", "flatbuffers,vtprotobuf"} {
		if _, err := ParseCodegen(bad); err == nil {
			t.Errorf("ParseCodegen(%q): no error", bad)
		}
	}
}

// A go command's message is relayed whole on one line: a missing go.sum
// entry keeps the command it says to run.
func TestGoTestErrorWhole(t *testing.T) {
	out := "# example.com/order\n../mod/derive/avro.go:9:2: missing go.sum entry for module providing package github.com/hamba/avro/v2 (imported by github.com/serbench/serbench/derive); to add:\n\tgo get github.com/serbench/serbench/derive@v0.1.0\nFAIL\texample.com/order [setup failed]\n"
	err := goTestError("order", []byte(out), errors.New("exit status 1"))
	want := "schema: the package in order does not build: ../mod/derive/avro.go:9:2: missing go.sum entry for module providing package github.com/hamba/avro/v2 (imported by github.com/serbench/serbench/derive); to add: go get github.com/serbench/serbench/derive@v0.1.0"
	if err == nil || err.Error() != want {
		t.Errorf("goTestError =\n%v\nwant\n%s", err, want)
	}
	err = goTestError("order", []byte("go: updates to go.mod needed; to update it:\n\tgo mod tidy\n"), errors.New("exit status 1"))
	if err == nil || !strings.HasSuffix(err.Error(), "go: updates to go.mod needed; to update it: go mod tidy") {
		t.Errorf("goTestError = %v", err)
	}
}

// splitType: a local name, a package name and an import path with dots.
func TestSplitType(t *testing.T) {
	for spec, want := range map[string][2]string{
		"Order": {"", "Order"}, "api.User": {"api", "User"},
		"example.com/x/api.User": {"example.com/x/api", "User"}, "gopkg.in/yaml.v3.Node": {"gopkg.in/yaml.v3", "Node"},
	} {
		if q, n := splitType(spec); q != want[0] || n != want[1] {
			t.Errorf("splitType(%q) = %q, %q, want %q", spec, q, n, want)
		}
	}
}
