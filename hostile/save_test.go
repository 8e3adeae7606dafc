package hostile

import (
	"os"
	"path/filepath"
	"testing"
)

// saveFindings writes the input of each finding, under a file name made
// safe, and nothing for the inputs without one.
func TestSaveFindings(t *testing.T) {
	dir := t.TempDir()
	row := Row{Codec: "json/v2", Scenario: "annot/coo@small", Findings: []Finding{{Input: "head/msgpack-array32=2^32-1@9"}}}
	inputs := []Input{{Name: "valid", Data: []byte("ok")}, {Name: "head/msgpack-array32=2^32-1@9", Data: []byte{0xdd, 1}}}
	if err := saveFindings(dir, row, inputs); err != nil {
		t.Fatal(err)
	}
	names, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	const want = "json-v2_annot-coo-at-small_head-msgpack-array32-232-1-at-9.bin"
	if len(names) != 1 || names[0].Name() != want {
		t.Fatalf("files %v, want %s", names, want)
	}
	if b, err := os.ReadFile(filepath.Join(dir, want)); err != nil || string(b) != "\xdd\x01" {
		t.Errorf("saved %q (%v)", b, err)
	}
}
