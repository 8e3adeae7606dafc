package scaffold

import (
	"os"
	"path/filepath"
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
