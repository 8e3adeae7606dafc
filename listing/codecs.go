package listing

import (
	"fmt"
	"io"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/document"
)

// SeedCheck is the round-trip check of one codec on one seed scenario, as
// `serbench run` makes it before timing (bench.Prepare).
type SeedCheck struct {
	Scenario string
	// Status is codec.Kept (the round trip gave back a value equal to
	// the original), codec.Changed (decoded, but different, or the parse
	// tree differs), codec.Failed (an op failed to encode or decode it)
	// or codec.NA (the codec cannot take the scenario).
	Status codec.Outcome
	Note   string // the difference or the reason; "" for codec.Kept
	// Aliases is the alias probe's finding on the unmarshal (or parse)
	// op (bench.Op.AliasesInput); nil when not probed.
	Aliases *bool
}

// CodecRow is one codec of the codec table: its Info and its checks on
// the seed scenarios, in the order of the table's columns.
type CodecRow struct {
	Info  codec.Info
	Seeds []SeedCheck
}

// CodecsMarkdown writes the codec table of docs/codecs.md's "Codecs in the
// matrix" (`serbench list -format markdown`): one row per codec with its
// library module, version ("Go release" for the standard library, "this
// module" for serbench's own), kind, format, what a time.Time keeps, "yes"
// when in the default set, whether the decoded value aliases the input
// ("yes" when the alias probe saw it on some seed, "no" when on none, ""
// when nothing was probed), and per seed scenario (named by seeds, the
// columns) ✓ for an exact round trip, lossy or — with a footnote giving
// the difference or the reason; then the number of codec variants and of libraries (reference rows
// left out; each standard-library package counts as one).
func CodecsMarkdown(w io.Writer, seeds []string, rows []CodecRow) error {
	g := document.Table{Header: append([]string{"codec", "library", "version", "kind", "format", "time.Time", "default", "aliases input"}, seeds...), Markdown: true}
	g.Numeric = make([]bool, len(g.Header))
	var notes document.Notes
	libs, refs := map[string]bool{}, 0
	for _, r := range rows {
		i := r.Info
		if i.Kind != codec.Reference {
			lib := i.Module
			if lib == "std" {
				lib += " " + i.Format // encoding/json and encoding/gob are two libraries
			}
			libs[lib] = true
		} else {
			refs++
		}
		version := i.Version
		switch {
		case i.Module == "std":
			version = "Go release"
		case i.Module == "github.com/serbench/serbench":
			version = "this module"
		case version == "":
			version = "?"
		}
		def := ""
		if i.Default {
			def = "yes"
		}
		var found []*bool
		byScenario := map[string]SeedCheck{}
		for _, s := range r.Seeds {
			byScenario[s.Scenario] = s
			found = append(found, s.Aliases)
		}
		alias := ""
		if a := codec.FoldAliases(found); a != nil && *a {
			alias = "yes"
		} else if a != nil {
			alias = "no"
		}
		row := []string{"`" + i.ID + "`", library(i.Module), version, string(i.Kind), i.Format, i.Time, def, alias}
		for _, id := range seeds {
			s, ok := byScenario[id]
			switch {
			case !ok:
				row = append(row, "")
			case s.Status == codec.Kept:
				row = append(row, "✓")
			case s.Status == codec.Changed:
				row = append(row, "lossy "+notes.Mark(s.Note))
			default: // codec.Failed, codec.NA
				row = append(row, "— "+notes.Mark(s.Note))
			}
		}
		g.Rows = append(g.Rows, row)
	}
	ew := document.NewErrWriter(w)
	_ = g.WriteMarkdown(ew) // the error is ew's too
	if len(notes) > 0 {
		fmt.Fprintln(ew)
		_ = notes.WriteMarkdown(ew)
	}
	fmt.Fprintf(ew, "\n%d codec variants from %d libraries, plus %d reference rows. ✓: the seed scenario round-trips exactly (the check `serbench run` makes before timing; a parse-only codec's tree is compared with encoding/json's reading of the input); lossy: it decodes to a different value; —: not measured, for the reason given. aliases input: yes when a decoded value changed after its input bytes were overwritten (the alias probe on the seeds; a zero-copy view counts as yes without the probe).\n", len(rows)-refs, len(libs), refs)
	return ew.Err()
}

// library is module as the table shows it.
func library(module string) string {
	if module == "std" {
		return "standard library"
	}
	return module
}
