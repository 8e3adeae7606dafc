package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	serbenchlib "github.com/serbench/serbench"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/corpus"
	"github.com/serbench/serbench/derive"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/scaffold"
	"github.com/serbench/serbench/scenario"
)

func init() {
	register("list", "list the codecs and scenarios with their IDs", cmdList)
}

func cmdList(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	corpusFlag := fs.String("corpus", "", "a JSON file, a JSON Lines file (.ndjson, .jsonl) or a folder of them, to list as corpus/<name> scenarios too")
	format := formatFlag(fs, "table", []string{"table", "json", "markdown"}, "json: a serbench-list/v1 document; markdown: the codec table of docs/codecs.md, with library, version, kind, time, default set, round-trip check per seed scenario")
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	if *format == "markdown" {
		return report.CodecsMarkdown(stdout, seedIDs(), codecRows(all.Registry().All()))
	}
	scenarios, warnings, err := corpus.All(*corpusFlag, corpus.Options{})
	if err != nil {
		return fmt.Errorf("-corpus: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "serbench: warning: %s\n", w)
	}
	var infos []report.CodecInfo
	for _, c := range all.Registry().All() {
		infos = append(infos, report.CodecInfo{Info: c.Info()})
	}
	if *format == "json" {
		if err := addDropIn(ctx, infos, all.Registry().All()); err != nil {
			return err
		}
		for i, row := range codecRows(all.Registry().All()) {
			var found []*bool
			for _, s := range row.Seeds {
				found = append(found, s.Aliases)
			}
			infos[i].AliasesInput = codec.FoldAliases(found)
		}
	}
	l := report.Listing{}
	l.Codecs, l.Groups = report.ListCodecs(infos)
	var ss []report.ListedScenario
	for _, s := range append(scenarios, scenario.Annot()...) {
		if err := ctx.Err(); err != nil {
			return err
		}
		ls := report.ListedScenario{ID: s.ID, Type: s.Type}
		ls.JSONBytes, ls.JSONErr = report.JSONSize(s.Value())
		ss = append(ss, ls)
	}
	l.Scenarios = ss
	if *format == "json" {
		return report.ListJSON(stdout, l)
	}
	if err := report.List(stdout, l); err != nil {
		return err
	}
	return listDerived(stdout)
}

// listDerived writes the codecs that exist only for a user's own type
// (serbench.Benchmark and Check, not serbench run): those that derive a
// schema from the type when they bind and need nothing, and those that
// serbench init generates code for from the derived schema.
func listDerived(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nDerived codecs, for your own type (serbench.Benchmark and Check, not serbench run; docs/your-type.md)")
	fmt.Fprintln(tw, "codec\tlibrary\tformat\tderived\tneeds")
	for _, c := range serbenchlib.DerivedCodecs() {
		i := c.Info()
		fmt.Fprintf(tw, "%s\t%s\t%s\tschema at Bind\tnothing\n", i.ID, withVersion(i.Module, i.Version), i.Format)
	}
	for _, g := range scaffold.GeneratedCodecs() {
		fmt.Fprintf(tw, "%s\t%s\t%s\tschema + generated code\tserbench init -codegen %s, go generate: %s\n", g.ID, withVersion(g.Module, g.Version), formatName[g.Schema], g.ID, g.Needs)
	}
	return tw.Flush()
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

// seedIDs returns the IDs of the seed scenarios, the codec table's columns.
func seedIDs() []string {
	var ids []string
	for _, s := range scenario.Seeds() {
		ids = append(ids, s.ID)
	}
	return ids
}

// codecRows returns each codec of cs with its round-trip check on every
// seed scenario: the check `serbench run` makes before timing
// (bench.Prepare with the scenario's own comparison), without the timing.
func codecRows(cs []codec.Codec) []report.CodecRow {
	seeds := scenario.Seeds()
	rows := make([]report.CodecRow, 0, len(cs))
	for _, c := range cs {
		row := report.CodecRow{Info: c.Info()}
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
func seedCheck(c codec.Codec, s scenario.Scenario) report.SeedCheck {
	chk := report.SeedCheck{Scenario: s.ID, Status: codec.Kept}
	if c.Info().Kind == codec.Reference {
		chk.Status, chk.Note = codec.NA, "a reference row: it copies bytes and decodes nothing"
		return chk
	}
	for _, op := range bench.Prepare(c, s.Value(), s.New, func(_, got any) error { return s.Diff(got) }) {
		if op.Name == bench.OpUnmarshal || op.Name == bench.OpParse {
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
