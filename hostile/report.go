package hostile

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/env"
)

// Schema is the version of the JSON document Write produces.
const Schema = document.Hostile

// Formats lists the formats Write accepts.
var Formats = formats.Names()

// Document is one hostile-input run.
type Document struct {
	Schema string  `json:"schema"`
	Env    env.Env `json:"env"`
	// Seed seeded the bit flips.
	Seed uint64 `json:"seed"`
	// Limits are the limits in effect for every child.
	Limits Limits `json:"limits"`
	// Rlimit names the rlimit the children set ("RLIMIT_DATA=..."), "" if none.
	Rlimit string `json:"rlimit,omitempty"`
	// Rows has one Row per (codec, scenario), in run order.
	Rows []Row `json:"rows"`
}

// Write renders doc in format ("table", "markdown", "csv" or "json").
func Write(w io.Writer, format string, doc *Document) error {
	return formats.Write(w, format, doc)
}

// formats are the formats of a hostile document.
var formats = document.Formats[*Document]{Package: "hostile", List: []document.Format[*Document]{
	{Name: "table", Write: writeTable},
	{Name: "markdown", Write: writeMarkdown},
	{Name: "csv", Write: writeCSV},
	{Name: "json", Write: func(w io.Writer, doc *Document) error {
		d := *doc
		d.Schema = Schema
		return document.WriteJSON(w, "hostile", "  ", &d)
	}},
}}

var columns = []string{"codec", "scenario", "inputs", "rejected", "accepted", "panics", "killed", "bombs", "worst B/in-byte", "worst time"}

// table is doc's rows as a document.Table: codec and scenario text, the
// rest right-aligned; an error row has three cells.
func table(doc *Document) document.Table {
	t := document.Table{Header: columns, Numeric: make([]bool, len(columns))}
	for i := 2; i < len(columns); i++ {
		t.Numeric[i] = true
	}
	for _, r := range doc.Rows {
		t.Rows = append(t.Rows, cells(r))
	}
	return t
}

func cells(r Row) []string {
	if r.Error != "" {
		return []string{r.Codec, r.Scenario, "error: " + r.Error}
	}
	alloc := strconv.FormatFloat(r.WorstAllocPerByte, 'f', 0, 64)
	if r.WorstAllocInput != "" {
		alloc += " (" + r.WorstAllocInput + ")"
	}
	worst := durationText(r.WorstTime)
	if r.WorstTimeInput != "" {
		worst += " (" + r.WorstTimeInput + ")"
	}
	killed := strconv.Itoa(r.Killed)
	if r.Skipped > 0 {
		killed += fmt.Sprintf(" +%d skipped", r.Skipped)
	}
	return []string{r.Codec, r.Scenario, strconv.Itoa(r.Inputs), strconv.Itoa(r.Rejected), strconv.Itoa(r.Accepted),
		strconv.Itoa(r.Panics), killed, strconv.Itoa(r.Bombs), alloc, worst}
}

// durationText rounds d to three significant figures.
func durationText(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond).String()
	case d >= time.Microsecond:
		return d.Round(10 * time.Nanosecond).String()
	}
	return d.String()
}

func settingsText(doc *Document) string {
	s := fmt.Sprintf("seed %d; per input: time limit %v, memory limit %d MiB, stack limit %d MiB",
		doc.Seed, doc.Limits.Time, doc.Limits.Memory>>20, doc.Limits.Stack>>20)
	if doc.Rlimit != "" {
		s += ", " + doc.Rlimit
	}
	return s + fmt.Sprintf("; bomb: more than %dx the input (at least %d B counted) or %d MiB", BombRatio, BombMinSize, BombBytes>>20)
}

func findingText(f Finding) string {
	s := fmt.Sprintf("%s on %s (%d B)", f.Outcome, f.Input, f.Size)
	if f.Count > 1 {
		s += fmt.Sprintf(" and %d more inputs", f.Count-1)
	}
	s += ": " + f.Message
	if f.Origin != "" {
		s += " [in " + f.Origin + "]"
	}
	return s
}

func writeTable(w io.Writer, doc *Document) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(columns, "\t"))
	for _, r := range doc.Rows {
		fmt.Fprintln(tw, strings.Join(cells(r), "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", settingsText(doc))
	var b strings.Builder
	for _, r := range doc.Rows {
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "  %s %s: %s\n", r.Codec, r.Scenario, findingText(f))
		}
	}
	if b.Len() > 0 {
		fmt.Fprintf(w, "\nfindings:\n%s", b.String())
	}
	_, err := fmt.Fprintf(w, "\n%s\n", doc.Env.Summary())
	return err
}

func writeMarkdown(w io.Writer, doc *Document) error {
	var b strings.Builder
	if err := table(doc).WriteMarkdown(&b); err != nil {
		return err
	}
	fmt.Fprintf(&b, "\n%s. %s.\n", settingsText(doc), doc.Env.Summary())
	first := true
	for _, r := range doc.Rows {
		for _, f := range r.Findings {
			if first {
				b.WriteString("\nFindings:\n\n")
				first = false
			}
			fmt.Fprintf(&b, "- `%s` %s: %s\n", r.Codec, document.MarkdownCell(r.Scenario), document.MarkdownCell(findingText(f)))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// CSVHeader is the first record of the CSV format; one record per row
// follows, findings joined by "; " in the last field.
var CSVHeader = []string{"codec", "scenario", "inputs", "rejected", "accepted", "panics", "killed", "skipped", "bombs",
	"worst_alloc_per_byte", "worst_alloc_input", "worst_alloc_bytes", "worst_time_ns", "worst_time_input", "error", "findings"}

// csvNumeric marks CSVHeader's number columns: the others are text,
// through document.CSVCell (a leading = + - @ is a formula to a
// spreadsheet).
var csvNumeric = []bool{false, false, true, true, true, true, true, true, true, true, false, true, true, false, false, false}

func writeCSV(w io.Writer, doc *Document) error {
	t := document.Table{Header: CSVHeader, Numeric: csvNumeric}
	for _, r := range doc.Rows {
		var fs []string
		for _, f := range r.Findings {
			fs = append(fs, findingText(f))
		}
		t.Rows = append(t.Rows, []string{r.Codec, r.Scenario, strconv.Itoa(r.Inputs), strconv.Itoa(r.Rejected), strconv.Itoa(r.Accepted),
			strconv.Itoa(r.Panics), strconv.Itoa(r.Killed), strconv.Itoa(r.Skipped), strconv.Itoa(r.Bombs),
			strconv.FormatFloat(r.WorstAllocPerByte, 'g', -1, 64), r.WorstAllocInput, strconv.FormatInt(r.WorstAlloc, 10),
			strconv.FormatInt(int64(r.WorstTime), 10), r.WorstTimeInput, r.Error, strings.Join(fs, "; ")})
	}
	return t.WriteCSV(w)
}
