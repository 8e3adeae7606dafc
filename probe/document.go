package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/env"
)

// Schema is the version of the fidelity matrix's JSON format.
const Schema = document.Fidelity

// Document is the fidelity document, everything `serbench fidelity`
// shows: which probes each codec keeps, changes or refuses.
type Document struct {
	Schema string `json:"schema"`
	// Env is where the matrix was made; nil leaves it out (docs/fidelity.md's
	// copy, which must not change from machine to machine).
	Env *env.Env `json:"env,omitempty"`
	// Codecs and Probes describe the columns and rows, in report order.
	Codecs []codec.Info `json:"codecs"`
	Probes []Info       `json:"probes"`
	Cells  []Cell       `json:"cells"`
}

// NewDocument runs every probe through every codec (Run; a probe whose
// Isolate field is set runs in a child process with three times
// opts.Timeout, Isolator) and returns the complete document, with the
// environment envAt returns for the start time and the codecs used. It
// returns ctx's error when ctx is done first.
func NewDocument(ctx context.Context, codecs []codec.Codec, probes []Probe, opts Options, envAt func(started time.Time, used []codec.Codec) env.Env) (*Document, error) {
	started := time.Now()
	opts.Isolate = Isolator{Timeout: 3 * opts.Timeout}.Cell
	cells, err := Run(ctx, codecs, probes, opts)
	if err != nil {
		return nil, err
	}
	e := envAt(started, codecs)
	doc := &Document{Env: &e, Cells: cells}
	for _, c := range codecs {
		doc.Codecs = append(doc.Codecs, c.Info())
	}
	for _, p := range probes {
		doc.Probes = append(doc.Probes, p.Info())
	}
	return doc, nil
}

// Formats lists the names Write accepts.
var Formats = formats.Names()

// WriteCatalog writes one line per probe of ps (serbench fidelity -probes
// list): its ID, group and doc, in columns.
func WriteCatalog(w io.Writer, ps []Probe) error {
	ew := document.NewErrWriter(w)
	for _, p := range ps {
		fmt.Fprintf(ew, "%-20s %-14s %s\n", p.ID, p.Group, p.Doc)
	}
	return ew.Err()
}

// Write renders doc in the named format. An unknown format is a
// *document.UnknownFormatError that lists the valid ones.
func Write(w io.Writer, format string, doc *Document) error {
	return formats.Write(w, format, doc)
}

// formats are the formats of a fidelity document.
var formats = document.Formats[*Document]{Package: "probe", Document: "fidelity", List: []document.Format[*Document]{
	{Name: "table", Write: Table},
	{Name: "markdown", Write: Markdown},
	{Name: "csv", Write: CSV},
	{Name: "json", Write: JSON},
	{Name: "html", Write: HTML},
}}

// maxNote is the most runes of a cell's detail a footnote shows; the JSON
// and CSV formats keep all of it.
const maxNote = 160

// fidelityMatrix is the matrix laid out for the text formats: one row per
// probe, one column per codec that could take at least one probe, and the
// codecs that could take none with their first reason.
type fidelityMatrix struct {
	title string
	document.Table
	notes document.Notes
	// status[i][j] is the status of the cell of Rows[i] in codec column
	// j, for the HTML colours.
	status [][]Status
	// naReasons lists "codec: reason" for every codec with an n/a cell:
	// the reason of its first, with "(every probe)" for codecs with no
	// column.
	naReasons []string
	// codecColumns is the number of codec columns, the last of the header.
	codecColumns int
}

func buildFidelityMatrix(doc *Document, withDoc bool) fidelityMatrix {
	cells := map[[2]string]Cell{}
	tried := map[string]bool{}
	firstNA := map[string]string{}
	for _, c := range doc.Cells {
		cells[[2]string{c.Probe, c.Codec}] = c
		if c.Status != NA {
			tried[c.Codec] = true
		} else if _, ok := firstNA[c.Codec]; !ok {
			firstNA[c.Codec] = c.Error
		}
	}
	m := fidelityMatrix{title: "fidelity: probe × codec"}
	m.Header = []string{"probe"}
	m.Numeric = []bool{false}
	if withDoc {
		m.Header, m.Numeric = append(m.Header, "value"), append(m.Numeric, false)
	}
	var cols []string
	for _, ci := range doc.Codecs {
		if tried[ci.ID] {
			cols = append(cols, ci.ID)
			m.Header, m.Numeric = append(m.Header, ci.ID), append(m.Numeric, false)
		}
		if r, ok := firstNA[ci.ID]; ok {
			every := ""
			if !tried[ci.ID] {
				every = " (every probe)"
			}
			m.naReasons = append(m.naReasons, ci.ID+every+": "+cutRunes(strings.TrimPrefix(r, ci.ID+": "), maxNote))
		}
	}
	m.codecColumns = len(cols)
	for _, p := range doc.Probes {
		row := []string{p.ID}
		if withDoc {
			row = append(row, p.Doc)
		}
		var st []Status
		for _, id := range cols {
			c, ok := cells[[2]string{p.ID, id}]
			if !ok {
				row, st = append(row, ""), append(st, "")
				continue
			}
			text := string(c.Status)
			if d := c.Detail(); d != "" && c.Status != NA {
				text += " " + m.notes.Mark(cutRunes(strings.ReplaceAll(d, "\n", " "), maxNote))
			}
			row, st = append(row, text), append(st, c.Status)
		}
		m.Rows = append(m.Rows, row)
		m.status = append(m.status, st)
	}
	return m
}

// naHeading introduces the list of n/a reasons.
const naHeading = "n/a, the first reason per codec (the other cells name another type); codecs n/a for every probe have no column:"

// fidelityLegend explains the cell words, one sentence per line.
func fidelityLegend() []string {
	return []string{
		"kept: the decoded value equals the original (package fidelity: times as instants, except the zone probes, which also compare zone name and offset; -0 by its sign).",
		"changed: decoded without error but different; the note gives the first difference as path: want → got.",
		"error: marshal or unmarshal failed, the library panicked, or (cycle, deep-nesting: run in a child process) the process crashed; for cycle an error is the right answer.",
		"n/a: the codec cannot take the probe's type. A codec bound to the seed scenario types (codegen, wire) gets the probe's value in a seed field of the same Go type where there is one (\"via\" in the note).",
	}
}

func fidelityEnvText(e *env.Env) string {
	if e == nil {
		return ""
	}
	// The engine is part of the summary: encoding/json's error texts
	// depend on it.
	s := "\n" + e.Summary() + "\n"
	if ms := e.ModuleList(); len(ms) > 0 {
		s += "modules: " + strings.Join(ms, " ") + "\n"
	}
	return s
}

// Table writes doc as an aligned plain-text matrix, probes down
// and codecs across, with numbered notes, the codecs that could take no
// probe, a legend and the environment.
func Table(w io.Writer, doc *Document) error {
	return document.WriteTerminal(w, func(w io.Writer) error { return fidelityTable(w, doc) })
}

// fidelityTable is Table before escaping (document.WriteTerminal).
func fidelityTable(w io.Writer, doc *Document) error {
	ew := document.NewErrWriter(w)
	m := buildFidelityMatrix(doc, false)
	fmt.Fprintf(ew, "%s\n", m.title)
	for _, line := range m.Aligned() {
		fmt.Fprintln(ew, line)
	}
	for n, note := range m.notes {
		fmt.Fprintf(ew, "  [%d] %s\n", n+1, note)
	}
	if len(m.naReasons) > 0 {
		fmt.Fprintf(ew, "\n%s\n", naHeading)
		for _, s := range m.naReasons {
			fmt.Fprintf(ew, "  %s\n", s)
		}
	}
	fmt.Fprintln(ew)
	for _, l := range fidelityLegend() {
		fmt.Fprintln(ew, l)
	}
	fmt.Fprint(ew, fidelityEnvText(doc.Env))
	return ew.Err()
}

// Markdown writes doc as a GitHub-flavoured Markdown table with a
// "value" column describing each probe, the notes as a list, the codecs
// that could take no probe, the legend and, when doc.Env is set, the
// environment.
func Markdown(w io.Writer, doc *Document) error {
	ew := document.NewErrWriter(w)
	m := buildFidelityMatrix(doc, true)
	_ = m.WriteMarkdown(ew) // the error is ew's too
	if len(m.notes) > 0 {
		fmt.Fprintln(ew)
		for n, note := range m.notes {
			fmt.Fprintf(ew, "- [%d] %s\n", n+1, codeSpan(note))
		}
	}
	if len(m.naReasons) > 0 {
		fmt.Fprintf(ew, "\n%s\n\n", naHeading)
		for _, s := range m.naReasons {
			id, reason, _ := strings.Cut(s, ": ")
			fmt.Fprintf(ew, "- %s: %s\n", id, codeSpan(reason))
		}
	}
	fmt.Fprintln(ew)
	for _, l := range fidelityLegend() {
		fmt.Fprintf(ew, "%s  \n", l)
	}
	fmt.Fprint(ew, fidelityEnvText(doc.Env))
	return ew.Err()
}

// codeSpan writes s as a Markdown code span, long enough a fence for the
// backticks inside it.
func codeSpan(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// CSVHeader is the first record CSV writes; one record per cell
// follows, with Cell's fields under their JSON names.
var CSVHeader = []string{"codec", "probe", "status", "path", "want", "got", "error", "note", "size_bytes"}

// CSV writes doc's cells as RFC 4180 CSV with a header record.
func CSV(w io.Writer, doc *Document) error {
	t := document.Table{Header: CSVHeader, Numeric: make([]bool, len(CSVHeader))}
	t.Numeric[len(CSVHeader)-1] = true // size_bytes; the rest is text
	for _, c := range doc.Cells {
		t.Rows = append(t.Rows, []string{c.Codec, c.Probe, string(c.Status), c.Path, c.Want, c.Got, c.Error, c.Note, strconv.Itoa(c.Size)})
	}
	return t.WriteCSV(w)
}

// JSON writes doc as one indented JSON object; doc.Schema is set to
// Schema if empty.
func JSON(w io.Writer, doc *Document) error {
	d := *doc
	if d.Schema == "" {
		d.Schema = Schema
	}
	if d.Cells == nil {
		d.Cells = []Cell{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&d)
}

// cutRunes shortens s to n runes at most, marking the cut with "…".
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
