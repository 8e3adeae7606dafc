package all_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/scenario"
)

// TestRoundTripSeeds checks that every codec round-trips every seed scenario
// exactly (in the sense of package fidelity), converting first where the
// codec works on its own types.
func TestRoundTripSeeds(t *testing.T) {
	for _, c := range all.Codecs() {
		if c.Info().Kind == codec.Reference {
			continue // reference rows (memmove) return bytes, not a value to compare
		}
		for _, s := range scenario.Seeds() {
			t.Run(c.Info().ID+"/"+s.ID, func(t *testing.T) {
				want := s.Value()
				got, err := codec.RoundTrip(c, want)
				if err != nil {
					t.Fatal(err)
				}
				if err := fidelity.Diff(want, got); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

func TestRegistryIDsAreUnique(t *testing.T) {
	if _, err := codec.NewRegistry(all.Codecs()...); err != nil {
		t.Fatal(err)
	}
}

func TestInfoIsComplete(t *testing.T) {
	for _, c := range all.Codecs() {
		i := c.Info()
		if i.ID == "" || i.Module == "" || i.Format == "" || i.Kind == "" || i.Options == "" {
			t.Errorf("%s: incomplete Info %+v", i.ID, i)
		}
	}
}

// TestRoundTripAnnot checks that every codec that binds the annotation
// workloads (scenario.Annot) round-trips them exactly; a codec without a
// schema for one must say so with codec.ErrUnsupported. The large sizes
// are left out: they differ from the medium ones only in length (and
// would take half a minute), and `serbench run` round-trips every cell it
// times.
func TestRoundTripAnnot(t *testing.T) {
	for _, c := range all.Codecs() {
		if c.Info().Kind == codec.Reference {
			continue
		}
		for _, s := range scenario.Annot() {
			if strings.HasSuffix(s.ID, "@large") {
				continue
			}
			t.Run(c.Info().ID+"/"+s.ID, func(t *testing.T) {
				want := s.Value()
				got, err := codec.RoundTrip(c, want)
				if errors.Is(err, codec.ErrUnsupported) {
					t.Skip(err)
				}
				if err != nil {
					t.Fatal(err)
				}
				if err := fidelity.Diff(want, got); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}
