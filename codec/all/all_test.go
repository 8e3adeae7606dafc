package all_test

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/codec/defaults"
	"github.com/serbench/serbench/codec/gotiny"
	"github.com/serbench/serbench/codec/simdjson"
	"github.com/serbench/serbench/codec/stdjsonv2"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/internal/codectest"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

// TestRoundTripSeeds checks that every codec round-trips every seed scenario
// exactly (in the sense of package fidelity), converting first where the
// codec works on its own types, except the cells of
// codectest.SeedFailures, which must fail exactly as listed.
func TestRoundTripSeeds(t *testing.T) {
	for _, c := range all.Registry().All() {
		if c.Info().Kind == codec.Reference {
			continue // reference rows (memmove) return bytes, not a value to compare
		}
		for _, s := range scenario.Seeds() {
			t.Run(c.Info().ID+"/"+s.ID, func(t *testing.T) {
				if c.Info().ParseOnly {
					// One parse op, checked against encoding/json's tree.
					ops := bench.Prepare(c, s.Value(), s.New, nil)
					if c.Info().ID == simdjson.ID && !simdjson.Supported() && len(ops) == 1 && ops[0].NA {
						t.Skipf("simdjson-go does not run on this CPU (%v): codec/simdjson's test checks the error", ops[0].Err)
					}
					if len(ops) != 1 || ops[0].Name != results.OpParse || ops[0].Err != nil || ops[0].Run == nil {
						t.Fatalf("ops = %+v, want one checked parse", ops)
					}
					return
				}
				want := s.Value()
				got, err := codec.RoundTrip(c, want)
				if err == nil {
					err = fidelity.Diff(want, got)
				}
				codectest.CheckKnown(t, codectest.FindKnown(codectest.SeedFailures(), c.Info().ID, s.ID), err)
			})
		}
	}
}

// TestSeedFailuresExist checks that every known seed failure names a codec
// and a seed scenario that exist, so that a renamed one cannot linger.
func TestSeedFailuresExist(t *testing.T) {
	reg := all.Registry()
	for _, k := range codectest.SeedFailures() {
		if _, ok := reg.Lookup(k.Codec); !ok {
			t.Errorf("known failure of %q: no such codec", k.Codec)
		}
		if _, err := scenario.Select(scenario.Seeds(), []string{k.Scenario}); err != nil || k.Why == "" {
			t.Errorf("known failure %+v: %v (or no why)", k, err)
		}
	}
}

func TestRegistryIDsAreUnique(t *testing.T) {
	if _, err := codec.NewRegistry(all.Registry().All()...); err != nil {
		t.Fatal(err)
	}
}

func TestInfoIsComplete(t *testing.T) {
	for _, c := range all.Registry().All() {
		i := c.Info()
		if i.ID == "" || i.Module == "" || i.Format == "" || i.Kind == "" || i.Options == "" || i.Time == "" {
			t.Errorf("%s: incomplete Info %+v", i.ID, i)
		}
	}
}

// TestDefaultSet pins the default set that docs/reference.md, "Default set
// and groups" documents and justifies; a change here is a change there.
func TestDefaultSet(t *testing.T) {
	want := []string{"encoding/json", "json-v2", "jsoniter", "go-json", "sonic", "easyjson",
		"msgpack", "msgp", "cbor", "gob", "protobuf", "vtprotobuf", "flatbuffers", "wire", "wire/reuse", "memmove"}
	if stdjsonv2.Available {
		want = slices.Insert(want, 2, stdjsonv2.ID)
	}
	var got []string
	for _, c := range all.Registry().Default() {
		got = append(got, c.Info().ID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("default set = %v, want %v", got, want)
	}
}

// TestStdJSONv2 checks that encoding/json/v2 is in the registry exactly
// where the toolchain builds it, and that naming it elsewhere is one line
// saying why.
func TestStdJSONv2(t *testing.T) {
	reg := all.Registry()
	_, has := reg.Lookup(stdjsonv2.ID)
	why, absent := reg.Absent(stdjsonv2.ID)
	if has != stdjsonv2.Available || absent == stdjsonv2.Available {
		t.Fatalf("Available %v: in the registry %v, absent %v (%q)", stdjsonv2.Available, has, absent, why)
	}
	for _, names := range [][]string{{stdjsonv2.ID}, {"json", stdjsonv2.ID}} {
		_, err := reg.Resolve(names)
		if stdjsonv2.Available {
			if err != nil {
				t.Errorf("Resolve(%q): %v", names, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "not in this build") || strings.Contains(err.Error(), "\n") {
			t.Errorf("Resolve(%q) = %v, want one line saying it is not in this build", names, err)
		}
	}
	if _, err := reg.Select([]string{stdjsonv2.ID}); (err == nil) != stdjsonv2.Available {
		t.Errorf("Select(%q): %v", stdjsonv2.ID, err)
	}
}

// TestGroupsOfTheShippedCodecs checks the groups derived from Info against
// what a user expects of the codecs shipped today.
func TestGroupsOfTheShippedCodecs(t *testing.T) {
	reg := all.Registry()
	for _, tc := range []struct {
		group      string
		has, lacks []string
	}{
		{"json", []string{"encoding/json", "sonic/fastest", "easyjson", "ffjson"}, []string{"msgpack", "memmove"}},
		{"msgpack", []string{"msgpack", "msgp"}, []string{"cbor"}},
		{"cbor", []string{"cbor"}, []string{"msgpack"}},
		{"schema", []string{"protobuf", "vtprotobuf", "gogoproto", "flatbuffers", "flatbuffers/lazy", "capnp", "thrift/compact", "bebop", "avro", "goavro"}, []string{"easyjson", "msgp", "msgpackgen", "mus", "wire", "gob", "bson", "dedis-protobuf", "enkodo", "hprose"}},
		{"binary", []string{"msgpack", "gob", "protobuf", "wire/lazy", "dedis-protobuf", "ikeapack", "alecthomas-binary", "hprose", "enkodo"}, []string{"encoding/json", "memmove"}},
	} {
		g, ok := codec.LookupGroup(tc.group)
		if !ok {
			t.Fatalf("no group %q", tc.group)
		}
		var ids []string
		for _, c := range reg.Members(g) {
			ids = append(ids, c.Info().ID)
		}
		for _, id := range tc.has {
			if !slices.Contains(ids, id) {
				t.Errorf("group %s = %v, lacks %s", tc.group, ids, id)
			}
		}
		for _, id := range tc.lacks {
			if slices.Contains(ids, id) {
				t.Errorf("group %s = %v, has %s", tc.group, ids, id)
			}
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
	for _, c := range all.Registry().All() {
		if c.Info().Kind == codec.Reference || c.Info().ParseOnly {
			continue // parse-only rows are checked by their own tree walk
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
				err = fidelity.Diff(want, got)
				if why, lossy := lossyOnAnnot[c.Info().ID]; lossy {
					if err == nil {
						t.Fatalf("kept every value; lossyOnAnnot says %s: update it", why)
					}
					t.Skipf("known loss (%s): %v", why, err)
				}
				if err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// lossyOnAnnot lists the codecs known to change the annotation workloads'
// values, with the reason; TestRoundTripAnnot checks that they still do.
var lossyOnAnnot = map[string]string{
	"jsoniter/fastest": "ConfigFastest writes floats with 6 significant digits",
}

// TestDefaults checks codec/defaults against this package's Registry: its
// Registry holds, in the same order, exactly the codecs whose Info.Default
// is set, and knows every other shipped codec (gotiny too, which -race
// builds leave out) as absent, with an error naming this package.
func TestDefaults(t *testing.T) {
	var wantIDs, wantOthers []string
	for _, c := range all.Registry().All() {
		if c.Info().Default {
			wantIDs = append(wantIDs, c.Info().ID)
		} else {
			wantOthers = append(wantOthers, c.Info().ID)
		}
	}
	if childproc.RaceEnabled {
		wantOthers = append(wantOthers, gotiny.ID)
	}
	reg := defaults.Registry()
	if got := reg.IDs(); !slices.Equal(got, wantIDs) {
		t.Errorf("codec/defaults holds %v, want %v", got, wantIDs)
	}
	absent := reg.Absences()
	delete(absent, stdjsonv2.ID) // absent from builds without it, in both registries
	if got := slices.Sorted(maps.Keys(absent)); !slices.Equal(got, slices.Sorted(slices.Values(wantOthers))) {
		t.Errorf("codec/defaults knows as absent %v, want the codecs outside the default set %v", got, wantOthers)
	}
	for _, group := range []string{"default", "all"} {
		cs, err := reg.Resolve([]string{group})
		if err != nil || len(cs) != len(wantIDs) {
			t.Errorf("Resolve(%q) = %d codecs, %v; want the %d of the default set", group, len(cs), err, len(wantIDs))
		}
	}
	_, err := reg.Resolve([]string{"encoding/json", "sonic/fastest"})
	if err == nil || !strings.Contains(err.Error(), defaults.AllPackage) || !strings.Contains(err.Error(), "sonic/fastest") {
		t.Errorf(`Resolve("sonic/fastest") = %v, want an error naming %s and sonic/fastest`, err, defaults.AllPackage)
	}
}

// TestRegistryIsShared checks that Registry is built once: two calls give
// the same codecs.
func TestRegistryIsShared(t *testing.T) {
	if a, b := all.Registry(), all.Registry(); a != b {
		t.Errorf("Registry() returned two registries")
	}
	if a, b := defaults.Registry(), defaults.Registry(); a != b {
		t.Errorf("defaults.Registry() returned two registries")
	}
}
