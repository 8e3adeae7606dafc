// Package listing builds the document of `serbench list`: the codecs of a
// registry with their groups, the scenarios (seeds, a corpus's, the
// annotated ones) with their encoded JSON size, and the derived codecs
// that exist only for a user's own type; and the rows of docs/codecs.md's
// codec table, each codec's round-trip check on every seed scenario.
// It writes them too (List, ListJSON, CodecsMarkdown), to the io.Writer
// it is given; it never prints.
package listing

import (
	"context"
	"errors"
	"fmt"

	serbenchlib "github.com/serbench/serbench"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/corpus"
	"github.com/serbench/serbench/derive"
	"github.com/serbench/serbench/dropin/measure"
	"github.com/serbench/serbench/probe"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scaffold"
	"github.com/serbench/serbench/scenario"
)

// Options select what New lists and measures. Registry is required.
type Options struct {
	// Registry holds the codecs listed, in its order.
	Registry *codec.Registry
	// Corpus is a JSON file, a JSON Lines file or a folder of them whose
	// messages are listed as corpus/<name> scenarios too (corpus.All);
	// "" lists none.
	Corpus string
	// Measure adds the measured columns of the JSON document: each codec's
	// drop-in class (package dropin; probes that may recurse without end
	// run in child processes of this executable, probe.Isolator) and
	// whether its decoded value aliases the input on some seed scenario.
	Measure bool
}

// New returns the complete listing and the corpus's warnings (messages
// skipped, corpus.All). A bad corpus is an error prefixed "-corpus: ";
// New returns ctx's error when ctx is done first.
func New(ctx context.Context, o Options) (*Listing, []string, error) {
	if o.Registry == nil {
		return nil, nil, errors.New("listing: nil Registry")
	}
	scenarios, warnings, err := corpus.All(o.Corpus, corpus.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("-corpus: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	cs := o.Registry.All()
	var infos []results.CodecInfo
	for _, c := range cs {
		infos = append(infos, results.CodecInfo{Info: c.Info()})
	}
	if o.Measure {
		classes, err := measure.Classes(ctx, cs, o.Registry.Lookup, measure.Options{Isolate: probe.Isolator{}.Cell})
		if err != nil {
			return nil, nil, err
		}
		for i, row := range CodecRows(cs) {
			infos[i].DropIn = classes[infos[i].ID]
			var found []*bool
			for _, s := range row.Seeds {
				found = append(found, s.Aliases)
			}
			infos[i].AliasesInput = codec.FoldAliases(found)
		}
	}
	l := &Listing{Derived: Derived()}
	l.Codecs, l.Groups = ListCodecs(infos)
	for _, s := range append(scenarios, scenario.Annot()...) {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		ls := ListedScenario{ID: s.ID, Type: s.Type}
		ls.JSONBytes, ls.JSONErr = JSONSize(s.Value())
		l.Scenarios = append(l.Scenarios, ls)
	}
	return l, warnings, nil
}

// Derived returns the codecs that exist only for a user's own type
// (serbench.Benchmark and Check, not serbench run): those that derive a
// schema from the type when they bind and need nothing, then those that
// serbench init generates code for from the derived schema.
func Derived() []DerivedCodec {
	var ds []DerivedCodec
	for _, c := range serbenchlib.DerivedCodecs() {
		i := c.Info()
		ds = append(ds, DerivedCodec{ID: i.ID, Library: withVersion(i.Module, i.Version), Format: i.Format, Derived: "schema at Bind", Needs: "nothing"})
	}
	for _, g := range scaffold.GeneratedCodecs() {
		ds = append(ds, DerivedCodec{ID: g.ID, Library: withVersion(g.Module, g.Version), Format: formatName[g.Schema], Derived: "schema + generated code",
			Needs: fmt.Sprintf("serbench init -codegen %s, go generate: %s", g.ID, g.Needs)})
	}
	return ds
}

// withVersion is module@version, or module when the version is unknown
// (a test binary has no module versions in its build info).
func withVersion(module, version string) string {
	if version == "" {
		return module
	}
	return module + "@" + version
}

// formatName is the Info.Format of a derived schema's codecs.
var formatName = map[derive.Format]string{derive.Proto: "Protocol Buffers", derive.Avro: "Avro", derive.FlatBuffers: "FlatBuffers"}

// SeedIDs returns the IDs of the seed scenarios, the codec table's columns.
func SeedIDs() []string {
	var ids []string
	for _, s := range scenario.Seeds() {
		ids = append(ids, s.ID)
	}
	return ids
}

// CodecRows returns each codec of cs with its round-trip check on every
// seed scenario: the check `serbench run` makes before timing
// (bench.Prepare with the scenario's own comparison), without the timing.
func CodecRows(cs []codec.Codec) []CodecRow {
	seeds := scenario.Seeds()
	rows := make([]CodecRow, 0, len(cs))
	for _, c := range cs {
		row := CodecRow{Info: c.Info()}
		for _, s := range seeds {
			row.Seeds = append(row.Seeds, seedCheck(c, s))
		}
		rows = append(rows, row)
	}
	return rows
}

// seedCheck is c's round-trip check on s: n/a when an op is n/a, error
// when an op cannot run, changed when an op's check found a difference,
// kept otherwise; a reference row (memmove), which decodes nothing, is n/a.
func seedCheck(c codec.Codec, s scenario.Scenario) SeedCheck {
	chk := SeedCheck{Scenario: s.ID, Status: codec.Kept}
	if c.Info().Kind == codec.Reference {
		chk.Status, chk.Note = codec.NA, "a reference row: it copies bytes and decodes nothing"
		return chk
	}
	for _, op := range bench.Prepare(c, s.Value(), s.New, func(_, got any) error { return s.Diff(got) }) {
		if op.Name == results.OpUnmarshal || op.Name == results.OpParse {
			chk.Aliases = op.AliasesInput
		}
		switch {
		case op.NA:
			chk.Status, chk.Note = codec.NA, op.Err.Error()
			return chk
		case op.Err != nil && op.Run == nil:
			chk.Status, chk.Note = codec.Failed, op.Err.Error()
			return chk
		case op.Err != nil && chk.Status == codec.Kept:
			chk.Status, chk.Note = codec.Changed, op.Err.Error()
		}
	}
	return chk
}
