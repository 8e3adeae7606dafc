package conformance

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/serbench/serbench/document"
)

// Formats lists the formats Write takes.
var Formats = formats(false).Names()

// Write writes rep to w in format (one of Formats). With verbose, the table
// and Markdown forms also list every miss and every reported outcome; JSON
// always holds them, and CSV holds them as rows of kind "miss" and
// "outcome" only with verbose. Errors from w are returned.
func Write(w io.Writer, format string, rep *Report, verbose bool) error {
	return formats(verbose).Write(w, format, rep)
}

// formats are the formats of a conformance report, with or without every
// miss and outcome.
func formats(verbose bool) document.Formats[*Report] {
	return document.Formats[*Report]{Package: "conformance", List: []document.Format[*Report]{
		{Name: "table", Write: func(w io.Writer, rep *Report) error { return writeTable(w, rep, verbose) }},
		{Name: "markdown", Write: func(w io.Writer, rep *Report) error { return writeMarkdown(w, rep, verbose) }},
		{Name: "json", Write: func(w io.Writer, rep *Report) error { return document.WriteJSON(w, "conformance", " ", rep) }},
		{Name: "csv", Write: func(w io.Writer, rep *Report) error { return writeCSV(w, rep, verbose) }},
	}}
}

// checksText is a row's counts in one cell: "y accepted 95/95, ...".
func checksText(r Row) string {
	if r.NA != "" {
		return "n/a: " + r.NA
	}
	parts := make([]string, len(r.Checks))
	for i, c := range r.Checks {
		parts[i] = fmt.Sprintf("%s %d/%d", c.Name, c.Passed, c.Total)
	}
	return strings.Join(parts, ", ")
}

// passText is a row's judged total: "283/283", or "n/a".
func passText(r Row) string {
	if r.NA != "" {
		return "n/a"
	}
	p, t := r.Passed()
	return fmt.Sprintf("%d/%d", p, t)
}

// methods groups the rows by suite and by how they were run, in first-seen
// order: "jsontestsuite encoding/json, json-v2" → method.
func methods(rep *Report) (order []string, rows map[string][]string) {
	rows = map[string][]string{}
	for _, r := range rep.Rows {
		if r.Method == "" {
			continue
		}
		key := r.Suite + "\x00" + r.Method
		if _, ok := rows[key]; !ok {
			order = append(order, key)
		}
		rows[key] = append(rows[key], r.Codec)
	}
	return order, rows
}

// methodLine writes one group of methods as "suite codec, codec: method".
func methodLine(key string, codecs []string) string {
	suite, method, _ := strings.Cut(key, "\x00")
	return suite + " " + strings.Join(codecs, ", ") + ": " + method
}

// details lists every miss and outcome of rep as lines, row by row.
func details(rep *Report) []string {
	var lines []string
	add := func(r Row, kind string, cases []Case) {
		for _, c := range cases {
			k := kind
			if c.Panic {
				k += " (panic)"
			}
			lines = append(lines, fmt.Sprintf("%s %s [%s] %s: %s: %s", r.Suite, r.Codec, c.Check, k, c.Name, c.Detail))
		}
	}
	for _, r := range rep.Rows {
		add(r, "miss", r.Misses)
		add(r, "outcome", r.Outcomes)
	}
	return lines
}

func envLine(rep *Report) string {
	return rep.Env.Summary() + "; " + strings.Join(rep.Env.ModuleList(), " ")
}

// table is rep's rows: suite, codec, passed, panics (numbers) and checks.
func table(rep *Report) document.Table {
	t := document.Table{Header: []string{"suite", "codec", "passed", "panics", "checks"}, Numeric: []bool{false, false, true, true, false}}
	for _, r := range rep.Rows {
		t.Rows = append(t.Rows, []string{r.Suite, r.Codec, passText(r), strconv.Itoa(r.Panics()), checksText(r)})
	}
	return t
}

func writeTable(w io.Writer, rep *Report, verbose bool) error {
	ew := document.NewErrWriter(w)
	t := table(rep)
	t.Numeric = nil // the terminal table left-aligns every column
	for _, l := range t.Aligned() {
		fmt.Fprintln(ew, l)
	}
	order, byMethod := methods(rep)
	fmt.Fprintln(ew, "\nhow each row ran:")
	for _, m := range order {
		fmt.Fprintf(ew, "  %s\n", methodLine(m, byMethod[m]))
	}
	if verbose {
		fmt.Fprintln(ew, "\nmisses and outcomes:")
		for _, l := range details(rep) {
			fmt.Fprintln(ew, "  "+l)
		}
	}
	fmt.Fprintf(ew, "\n%s\n", envLine(rep))
	if ew.Err() != nil {
		return fmt.Errorf("conformance: write table: %w", ew.Err())
	}
	return nil
}

func writeMarkdown(w io.Writer, rep *Report, verbose bool) error {
	ew := document.NewErrWriter(w)
	_ = table(rep).WriteMarkdown(ew) // the error is ew's too
	order, byMethod := methods(rep)
	fmt.Fprintln(ew, "\nHow each row ran:")
	fmt.Fprintln(ew)
	for _, m := range order {
		fmt.Fprintf(ew, "- %s\n", methodLine(m, byMethod[m]))
	}
	if verbose {
		fmt.Fprintln(ew, "\nMisses and outcomes:")
		fmt.Fprintln(ew)
		for _, l := range details(rep) {
			fmt.Fprintf(ew, "- %s\n", l)
		}
	}
	fmt.Fprintf(ew, "\n%s\n", envLine(rep))
	if ew.Err() != nil {
		return fmt.Errorf("conformance: write markdown: %w", ew.Err())
	}
	return nil
}

func writeCSV(w io.Writer, rep *Report, verbose bool) error {
	// Every column is text to document.Table, so every field goes
	// through document.CSVCell: the text ones may come from a suite's
	// file names and a decoder's errors, and the numbers here are never
	// negative.
	t := document.Table{Header: []string{"kind", "suite", "codec", "check", "passed", "total", "informative", "case", "detail", "panic"}}
	rec := func(fields ...string) { t.Rows = append(t.Rows, fields) }
	for _, r := range rep.Rows {
		if r.NA != "" {
			rec("n/a", r.Suite, r.Codec, "", "", "", "", "", r.NA, "")
			continue
		}
		for _, c := range r.Checks {
			rec("count", r.Suite, r.Codec, c.Name, strconv.Itoa(c.Passed), strconv.Itoa(c.Total), strconv.FormatBool(c.Informative), "", "", "")
		}
		if !verbose {
			continue
		}
		for _, kc := range []struct {
			kind  string
			cases []Case
		}{{"miss", r.Misses}, {"outcome", r.Outcomes}} {
			for _, c := range kc.cases {
				rec(kc.kind, r.Suite, r.Codec, c.Check, "", "", "", c.Name, c.Detail, strconv.FormatBool(c.Panic))
			}
		}
	}
	if err := t.WriteCSV(w); err != nil {
		return fmt.Errorf("conformance: write csv: %w", err)
	}
	return nil
}
