package corpus_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/codec/stdjsonv2"
	"github.com/serbench/serbench/corpus"
	"github.com/serbench/serbench/internal/codectest"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

// typedFailures are the cells of the typed toolchain scenarios that do not
// round-trip. Every JSON codec must round-trip every corpus; the test fails
// if a cell listed here starts to round-trip, so the table stays true.
var typedFailures = []codectest.KnownFailure{
	codectest.Known("gob", "corpus/citm_catalog", `fidelity: .Events["342742592"].SubTopicIDs: want empty slice, got nil`,
		"gob does not transmit empty slices: [] comes back as nil (null in JSON)"),
	codectest.Known("gob", "corpus/golang_source", "fidelity: .Tree.Kids[0].Kids[0].Kids[0].Kids[0].Kids[0].Kids[0].Kids: want empty slice, got nil",
		"gob does not transmit empty slices: a file's empty Kids comes back as nil"),
	codectest.Known("gob", "corpus/synthea_fhir", "fidelity: .Entry[0].Resource.MultipleBirthBoolean: want &false, got nil",
		"gob does not transmit zero values, through pointers too: a *bool pointing to false comes back as nil (absent in JSON)"),
	codectest.Known("gob", "corpus/twitter_status", "fidelity: .Statuses[0].User.Entities.Description.URLs: want empty slice, got nil",
		"gob does not transmit empty slices: [] comes back as nil (null in JSON)"),
	codectest.Known("kelindar-binary", "corpus/citm_catalog", `fidelity: .Events["342742592"].SubTopicIDs: want empty slice, got nil`,
		"kelindar/binary writes a slice as its length: [] comes back as nil"),
	codectest.Known("xdr", "corpus/citm_catalog", "marshal: xdr:encode: type 'invalid' is not valid",
		"go-xdr cannot encode a nil pointer (XDR's optional data is not supported)"),
	codectest.Known("xdr", "corpus/golang_source", "fidelity: .Tree.Kids[0].Kids[0].Kids[0].Kids[0].Kids[0].Kids[0].Kids: want empty slice, got nil",
		"an XDR array is its length: [] comes back as nil"),
	codectest.Known("xdr", "corpus/synthea_fhir", "marshal: xdr:encode: type 'invalid' is not valid",
		"go-xdr cannot encode a nil pointer (XDR's optional data is not supported)"),
	codectest.Known("xdr", "corpus/twitter_status", "marshal: xdr:encode: type 'invalid' is not valid",
		"go-xdr cannot encode a nil pointer (XDR's optional data is not supported)"),
	codectest.Known("dedis-protobuf", "corpus/golang_source", "fidelity: .Tree.Kids[0].Kids[0].Kids[0].Kids[0].Kids[0].Kids[0].Kids: want empty slice, got nil",
		"Protocol Buffers does not write an empty repeated field: [] comes back as nil"),
	codectest.Known("dedis-protobuf", "corpus/twitter_status", "fidelity: .Statuses[0].User.Entities.Description.URLs: want empty slice, got nil",
		"Protocol Buffers does not write an empty repeated field: [] comes back as nil"),
	codectest.Known("ikeapack", "corpus/citm_catalog", "marshal: ikeapack: encoding *corpus.CitmCatalog panicked: Attempting to marshal nil value",
		"ikeapack cannot pack a nil pointer: it panics, which the adapter recovers"),
	codectest.Known("ikeapack", "corpus/synthea_fhir", "marshal: ikeapack: encoding *corpus.SyntheaBundle panicked: Attempting to marshal nil value",
		"ikeapack cannot pack a nil pointer: it panics, which the adapter recovers"),
	codectest.Known("ikeapack", "corpus/twitter_status", "marshal: ikeapack: encoding *corpus.TwitterSearch panicked: Attempting to marshal nil value",
		"ikeapack cannot pack a nil pointer: it panics, which the adapter recovers"),
	codectest.Known("hprose", "corpus/golang_source", "fidelity: .Tree.Kids[0].Kids[0].Kids[0].Kids[0].Kids[0].Kids[0].Kids: want empty slice, got nil",
		"Hprose writes an empty list, but its decoder makes nil of it: [] comes back as nil"),
	codectest.Known("hprose", "corpus/twitter_status", "fidelity: .Statuses[0].User.Entities.Description.URLs: want empty slice, got nil",
		"Hprose writes an empty list, but its decoder makes nil of it: [] comes back as nil"),
	codectest.Known("jsoniter/fastest", "corpus/canada_geometry", "fidelity: .Features[0].Geometry.Coordinates[0][0][0]: want -65.61361699999998, got -65.613617", sixDigits),
	codectest.Known("jsoniter/fastest", "corpus/golang_source", "fidelity: .Tree.Kids[0].Kids[0].Kids[0].Kids[0].Kids[0].ClWeight: want 0.9999999999999999, got 1", sixDigits),
	codectest.Known("jsoniter/fastest", "corpus/synthea_fhir", "fidelity: .Entry[0].Resource.Extension[5].ValueDecimal: want 5.295352363612872, got 5.295352", sixDigits),
	codectest.Known("gob/stream", "corpus/citm_catalog", `fidelity: .Events["342742592"].SubTopicIDs: want empty slice, got nil`,
		"the same encoding/gob as gob: [] comes back as nil"),
	codectest.Known("gob/stream", "corpus/golang_source", "fidelity: .Tree.Kids[0].Kids[0].Kids[0].Kids[0].Kids[0].Kids[0].Kids: want empty slice, got nil",
		"the same encoding/gob as gob: [] comes back as nil"),
	codectest.Known("gob/stream", "corpus/synthea_fhir", "fidelity: .Entry[0].Resource.MultipleBirthBoolean: want &false, got nil",
		"the same encoding/gob as gob: a *bool pointing to false comes back as nil"),
	codectest.Known("gob/stream", "corpus/twitter_status", "fidelity: .Statuses[0].User.Entities.Description.URLs: want empty slice, got nil",
		"the same encoding/gob as gob: [] comes back as nil"),
}

// sixDigits is why jsoniter/fastest loses floats.
const sixDigits = "ConfigFastest marshals floats with at most 6 digits after the point (MarshalFloatWith6Digits)"

// lossyJSON are the JSON codecs configured to lose data by design, exempt
// from the rule that a JSON codec round-trips every corpus.
var lossyJSON = map[string]bool{"jsoniter/fastest": true}

// anyFailures are the cells of the same documents loaded by Files, as *any
// with numbers kept exact, that do not keep what the file holds.
var anyFailures = []codectest.KnownFailure{
	codectest.Known("gob", "corpus/citm_catalog", `fidelity: ["events"]["342742592"]["subTopicIds"]: want empty array, got nil slice (null)`,
		"gob does not transmit empty slices, inside interfaces too"),
	codectest.Known("gob", "corpus/golang_source", `fidelity: ["tree"]["kids"][0]["kids"][0]["kids"][0]["kids"][0]["kids"][0]["kids"][0]["kids"]: want empty array, got nil slice (null)`,
		"gob does not transmit empty slices, inside interfaces too"),
	codectest.Known("gob", "corpus/twitter_status", `fidelity: ["statuses"][0]["entities"]["hashtags"]: want empty array, got nil slice (null)`,
		"gob does not transmit empty slices, inside interfaces too"),
	codectest.Known("jsoniter/fastest", "corpus/canada_geometry", `fidelity: ["features"][0]["geometry"]["coordinates"][0][0][0]: want -65.61361699999998, got float64 -65.613617`, sixDigits),
	codectest.Known("jsoniter/fastest", "corpus/golang_source", `fidelity: ["tree"]["kids"][0]["kids"][0]["cl_weight"]: want 176.4999999999996, got float64 176.5`, sixDigits),
	codectest.Known("jsoniter/fastest", "corpus/synthea_fhir", `fidelity: ["entry"][0]["resource"]["address"][0]["extension"][0]["extension"][0]["valueDecimal"]: want 41.8142171839621, got float64 41.814217`, sixDigits),
	codectest.Known("gob/stream", "corpus/citm_catalog", `fidelity: ["events"]["342742592"]["subTopicIds"]: want empty array, got nil slice (null)`,
		"the same encoding/gob as gob"),
	codectest.Known("gob/stream", "corpus/golang_source", `fidelity: ["tree"]["kids"][0]["kids"][0]["kids"][0]["kids"][0]["kids"][0]["kids"][0]["kids"]: want empty array, got nil slice (null)`,
		"the same encoding/gob as gob"),
	codectest.Known("gob/stream", "corpus/twitter_status", `fidelity: ["statuses"][0]["entities"]["hashtags"]: want empty array, got nil slice (null)`,
		"the same encoding/gob as gob"),
}

// float64JSON are the JSON codecs that decode numbers into any as float64,
// as encoding/json does: on twitter_status, whose IDs are above 2^53, they
// round the first one met in sorted key order.
// encoding/json/v2 is one of them where the build has it.
var float64JSON = []string{"encoding/json", "json-v2", "jsoniter", "jsoniter/fastest", "go-json", "sonic", "sonic/default", "sonic/fastest", "segmentio-json"}

func init() {
	if stdjsonv2.Available {
		float64JSON = append(float64JSON, stdjsonv2.ID)
	}
	for _, id := range float64JSON {
		anyFailures = append(anyFailures, codectest.Known(id, "corpus/twitter_status",
			`fidelity: ["search_metadata"]["max_id"]: want 505874924095815700, got float64 505874924095815680`,
			"numbers decode into any as float64, which rounds integers above 2^53"))
	}
}

// TestRoundTripToolchain round-trips every codec on every typed toolchain
// scenario, as codec/all's test does for the seeds.
func TestRoundTripToolchain(t *testing.T) {
	checkRoundTrips(t, loadToolchain(t), typedFailures, true)
}

// TestRoundTripFiles round-trips every codec on the toolchain documents
// loaded by Files into *any: maps, slices, float64, string, bool, nil.
func TestRoundTripFiles(t *testing.T) {
	loadToolchain(t)
	dir := t.TempDir()
	for _, n := range corpus.ToolchainNames() {
		if err := os.WriteFile(filepath.Join(dir, n+".json"), original(t, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ss, err := corpus.Files(dir, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkRoundTrips(t, ss, anyFailures, false)
}

// checkRoundTrips round-trips every codec on ss and checks each result with
// Scenario.Diff against the known failures; with jsonExact, a JSON codec
// may not fail at all.
func checkRoundTrips(t *testing.T, ss []scenario.Scenario, known []codectest.KnownFailure, jsonExact bool) {
	for _, c := range all.Registry().All() {
		info := c.Info()
		for _, s := range ss {
			t.Run(info.ID+"/"+s.ID, func(t *testing.T) {
				if info.ParseOnly {
					// One parse op, its tree checked against encoding/json's.
					ops := bench.Prepare(c, s.Value(), s.New, func(_, got any) error { return s.Diff(got) })
					if len(ops) != 1 || ops[0].Name != results.OpParse || ops[0].Err != nil {
						t.Fatalf("ops = %+v, want one checked parse", ops)
					}
					return
				}
				want := s.Value()
				got, err := codec.RoundTrip(c, want)
				if errors.Is(err, codec.ErrUnsupported) {
					// Schema-bound codecs (generated code, wire, Avro) carry
					// only the seed types, and some reflection codecs refuse
					// a type in Bind (no interfaces, no recursive types):
					// n/a, with the reason, never a failure.
					t.Skip(err)
				}
				if err == nil {
					err = s.Diff(got)
				}
				k := codectest.FindKnown(known, info.ID, s.ID)
				if k != nil && jsonExact && info.Format == "JSON" && !lossyJSON[info.ID] {
					t.Fatalf("a JSON codec must round-trip every corpus; remove the known failure %q", k.Err)
				}
				codectest.CheckKnown(t, k, err)
			})
		}
	}
}

// TestBigIDs loads a small API response with snowflake IDs above 2^53: the
// source-fidelity finding counts the IDs encoding/json rounds, the JSON
// codecs that decode numbers into any as float64 are lossy, and the binary
// codecs keep the IDs as integers.
func TestBigIDs(t *testing.T) {
	ss, err := corpus.Files(filepath.Join("testdata", "tweets.json"), corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := ss[0]
	want := []scenario.SourceLoss{{Kind: corpus.LossBigInteger, Count: 7, Path: `["data"][1]["id"]`,
		Text: "1849205512907743233", Decoded: "1849205512907743232"}}
	if !reflect.DeepEqual(s.Source, want) {
		t.Errorf("Source:\n got  %+v\n want %+v", s.Source, want)
	}
	rounded := `fidelity: ["data"][1]["author_id"]: want 1603825917466333185, got float64 1603825917466333184`
	tests := []struct {
		codec string
		err   string // "" when the codec keeps the file
	}{
		{"encoding/json", rounded},
		{"json-v2", rounded},
		{"jsoniter", rounded},
		{"go-json", rounded},
		{"sonic", rounded},
		{"segmentio-json", rounded},
		{"msgpack", ""},
		{"cbor", ""},
		{"gob", `fidelity: ["data"][0]["entities"]["urls"]: want empty array, got nil slice (null)`},
	}
	reg := all.Registry()
	for _, tt := range tests {
		t.Run(tt.codec, func(t *testing.T) {
			c, ok := reg.Lookup(tt.codec)
			if !ok {
				t.Fatalf("no codec %q", tt.codec)
			}
			got, err := codec.RoundTrip(c, s.Value())
			if err != nil {
				t.Fatal(err)
			}
			err = s.Diff(got)
			if (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
				t.Fatalf("got %v, want %q", err, tt.err)
			}
			// Where the codec keeps the file, the IDs are Go integers.
			id := (*got.(*any)).(map[string]any)["data"].([]any)[1].(map[string]any)["id"]
			kind := reflect.TypeOf(id).Kind()
			isInt := kind >= reflect.Int && kind <= reflect.Uint64
			if isInt != (tt.err == "" || tt.codec == "gob") {
				t.Errorf("id decoded as %T %v", id, id)
			}
			t.Logf("%s decodes the ID 1849205512907743233 as %T %v", tt.codec, id, id)
		})
	}
}

// TestToolchainUnchanged checks that the toolchain corpora, decoded into
// their Go types, keep the plain comparison (fidelity.Diff against the
// value) and carry no source-fidelity finding: their types lose nothing.
func TestToolchainUnchanged(t *testing.T) {
	for _, s := range loadToolchain(t) {
		if s.Compare != nil || s.Source != nil {
			t.Errorf("%s: Compare set: %v; Source %v", s.ID, s.Compare != nil, s.Source)
		}
	}
}
