package evolve

import (
	"fmt"
	"io"
	"strings"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/env"
)

// SchemaID is the "schema" value of the JSON document (docs/schema/evolve.schema.json).
const SchemaID = document.Evolve

// Formats are the output formats of Write.
var Formats = formats.Names()

// Report is the result of one `serbench evolve` run.
type Report struct {
	Schema  string   `json:"schema"`
	Env     env.Env  `json:"env"`
	Changes []Change `json:"changes"`
	Codecs  []Codec  `json:"codecs"`
	// Cells has one entry per (codec, change), codecs in the outer loop.
	Cells []Cell `json:"cells"`
}

// Write writes r in format ("table", "markdown" or "json"), the
// argument order of every serbench document's Write; an unknown format is
// a *document.UnknownFormatError naming it.
func Write(w io.Writer, format string, r Report) error {
	return formats.Write(w, format, r)
}

// formats are the formats of an evolve report.
var formats = document.Formats[Report]{Package: "evolve", List: []document.Format[Report]{
	{Name: "table", Write: writeTable},
	{Name: "markdown", Write: writeMarkdown},
	{Name: "json", Write: func(w io.Writer, r Report) error { return document.WriteJSON(w, "evolve", "  ", r) }},
}}

// short is an outcome's word in a table cell.
func short(o Outcome) string {
	switch o {
	case FieldLost:
		return "lost"
	case WrongValue:
		return "WRONG"
	}
	return string(o)
}

// cellText is "old→new / new→old", with " +kept" when the fields the old
// reader did not know survived its decode → encode pass.
func cellText(c Cell) string {
	s := short(c.OldToNew.Outcome) + " / " + short(c.NewToOld.Outcome)
	if c.Unknown == Survives {
		s += " +kept"
	}
	return s
}

// Legend explains the cells of the table and markdown formats.
const Legend = `Each cell: old writer → new reader / new writer → old reader.
ok: every field the reader has holds what the writer wrote, and nothing written is dropped;
lost: no error, but a value written arrived nowhere (the reader has no field for it, or matched it by a name that changed);
WRONG: no error, but a field holds a value the writer did not write;
error: the reader refused the bytes.
+kept: what the old reader did not know survived its decode → encode pass (read back by the new reader).`

func (r Report) byCodec() [][]Cell {
	var rows [][]Cell
	for i := 0; i < len(r.Cells); i += len(r.Changes) {
		rows = append(rows, r.Cells[i:min(i+len(r.Changes), len(r.Cells))])
	}
	return rows
}

// table is r's matrix: one row per codec, one column per change.
func (r Report) table() document.Table {
	t := document.Table{Header: []string{"codec", "schema"}}
	for _, ch := range r.Changes {
		t.Header = append(t.Header, ch.ID)
	}
	for i, row := range r.byCodec() {
		cells := []string{r.Codecs[i].ID, r.Codecs[i].Schema}
		for _, c := range row {
			cells = append(cells, cellText(c))
		}
		t.Rows = append(t.Rows, cells)
	}
	return t
}

func writeTable(w io.Writer, r Report) error {
	lines := strings.Join(r.table().Aligned(), "\n")
	_, err := fmt.Fprintf(w, "%s\n\n%s\n\nDetails:\n%s", lines, Legend, details(r, "  "))
	if err != nil {
		return fmt.Errorf("evolve: write table: %w", err)
	}
	return nil
}

func writeMarkdown(w io.Writer, r Report) error {
	var b strings.Builder
	if err := r.table().WriteMarkdown(&b); err != nil {
		return fmt.Errorf("evolve: write markdown: %w", err)
	}
	b.WriteString("\n" + strings.ReplaceAll(Legend, "\n", "\n\n") + "\n\nDetails:\n\n" + details(r, "- "))
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("evolve: write markdown: %w", err)
	}
	return nil
}

// details lists every direction that is not plain ok, one line each.
func details(r Report, prefix string) string {
	var b strings.Builder
	for _, c := range r.Cells {
		for _, d := range []struct {
			name string
			dir  Direction
		}{{"old→new", c.OldToNew}, {"new→old", c.NewToOld}} {
			if len(d.dir.Detail) > 0 {
				fmt.Fprintf(&b, "%s%s, %s, %s: %s: %s\n", prefix, c.Codec, c.Change, d.name, d.dir.Outcome, strings.Join(d.dir.Detail, "; "))
			}
		}
		if c.Unknown != NotAsked {
			fmt.Fprintf(&b, "%s%s, %s, unknown fields survive: %s", prefix, c.Codec, c.Change, c.Unknown)
			if len(c.UnknownDetail) > 0 {
				fmt.Fprintf(&b, " (%s)", strings.Join(c.UnknownDetail, "; "))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}
