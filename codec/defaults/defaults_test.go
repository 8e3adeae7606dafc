package defaults_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	_ "github.com/serbench/serbench/codec/defaults"
	"github.com/serbench/serbench/codec/stdjsonv2"
)

// TestLinksTheDefaultSet checks that importing the package alone links
// exactly the catalog's default set, each codec with Info.Default set, and
// that a shipped codec it leaves out is an error naming codec/all.
func TestLinksTheDefaultSet(t *testing.T) {
	var want []string
	for _, s := range codec.Catalog() {
		if s.Default && (s.ID != stdjsonv2.ID || stdjsonv2.Available) {
			want = append(want, s.ID)
		}
	}
	reg := codec.Linked()
	if got := reg.IDs(); !slices.Equal(got, want) {
		t.Fatalf("linked %v, want the catalog's default set %v", got, want)
	}
	for _, c := range reg.All() {
		if !c.Info().Default {
			t.Errorf("%s: Info.Default is false", c.Info().ID)
		}
	}
	for _, group := range []string{"default", "all"} {
		cs, err := reg.Resolve([]string{group})
		if err != nil || len(cs) != len(want) {
			t.Errorf("Resolve(%q) = %d codecs, %v; want the %d linked", group, len(cs), err, len(want))
		}
	}
	_, err := reg.Resolve([]string{"encoding/json", "sonic/fastest"})
	if err == nil || !strings.Contains(err.Error(), codec.AllPackage) || !strings.Contains(err.Error(), "codec/sonic") {
		t.Errorf(`Resolve("sonic/fastest") = %v, want an error naming %s and codec/sonic`, err, codec.AllPackage)
	}
}
