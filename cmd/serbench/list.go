package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/report"
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
		return report.CodecsMarkdown(stdout, seedIDs(), codecRows(all.Codecs()))
	}
	scenarios, warnings, err := loadScenarios(*corpusFlag)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "serbench: warning: %s\n", w)
	}
	var infos []codec.Info
	for _, c := range all.Codecs() {
		infos = append(infos, c.Info())
	}
	if *format == "json" {
		if err := addDropIn(ctx, infos, all.Codecs()); err != nil {
			return err
		}
		for i, row := range codecRows(all.Codecs()) {
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
	return report.List(stdout, l)
}

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
