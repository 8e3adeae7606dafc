package document

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Table is the one table model of every serbench document: a header and
// rows of cells, each column text or numbers. Every writer of a table
// goes through it: Aligned for the terminal, WriteMarkdown for a
// GitHub-flavoured Markdown table, WriteCSV for RFC 4180 CSV, so a cell
// is escaped the same way whichever document holds it.
type Table struct {
	Header []string
	// Numeric[i] says column i holds numbers (figures the writer
	// formatted itself): right-aligned in the terminal and in Markdown
	// ("--:"), and written to CSV as they are. Other columns are text:
	// left-aligned, and through CSVCell in CSV. A missing entry is text.
	Numeric []bool
	// Rows holds the cells, row by row; a row shorter than Header is
	// padded with empty cells.
	Rows [][]string
	// Markdown says the cells are Markdown already, written by serbench
	// itself from its own registry (code spans around codec IDs):
	// WriteMarkdown escapes only the cell separator '|' in them instead of
	// passing them through MarkdownCell, as it does every cell that may
	// hold text from a results file. The header is escaped as the cells.
	Markdown bool
}

// numeric reports whether column i holds numbers.
func (t Table) numeric(i int) bool { return i < len(t.Numeric) && t.Numeric[i] }

// row returns r padded to the header's width.
func (t Table) row(r []string) []string {
	if len(r) >= len(t.Header) {
		return r
	}
	return append(append(make([]string, 0, len(t.Header)), r...), make([]string, len(t.Header)-len(r))...)
}

// Aligned returns the header and rows as lines of columns two spaces
// apart, numbers right-aligned and text left-aligned, widths counted in
// runes, with no trailing spaces and no line breaks. Each cell goes
// through TerminalText first, so a newline or a control character in a
// name cannot break the columns.
func (t Table) Aligned() []string {
	all := make([][]string, 0, 1+len(t.Rows))
	for _, row := range append([][]string{t.Header}, t.Rows...) {
		row = t.row(row)
		cells := make([]string, len(row))
		for i, c := range row {
			cells[i] = TerminalText(c)
		}
		all = append(all, cells)
	}
	width := make([]int, len(t.Header))
	for _, row := range all {
		for i, c := range row {
			if i < len(width) {
				width[i] = max(width[i], utf8.RuneCountInString(c))
			}
		}
	}
	lines := make([]string, 0, len(all))
	for _, row := range all {
		var b strings.Builder
		for i, c := range row {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := ""
			if i < len(width) {
				pad = strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			}
			if t.numeric(i) {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
	}
	return lines
}

// WriteMarkdown writes t as a GitHub-flavoured Markdown table: the header
// row, the delimiter row ("---", or "--:" for a numeric column) and one
// line per row, the header and every cell through MarkdownCell (with
// t.Markdown, '|' escaped only). It returns the first write error.
func (t Table) WriteMarkdown(w io.Writer) error {
	cell := MarkdownCell
	if t.Markdown {
		cell = func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	}
	header := make([]string, len(t.Header))
	for i, h := range t.Header {
		header[i] = cell(h)
	}
	ew := NewErrWriter(w)
	fmt.Fprintf(ew, "| %s |\n", strings.Join(header, " | "))
	seps := make([]string, len(t.Header))
	for i := range seps {
		seps[i] = "---"
		if t.numeric(i) {
			seps[i] = "--:"
		}
	}
	fmt.Fprintf(ew, "|%s|\n", strings.Join(seps, "|"))
	for _, r := range t.Rows {
		r = t.row(r)
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = cell(c)
		}
		fmt.Fprintf(ew, "| %s |\n", strings.Join(cells, " | "))
	}
	return ew.Err()
}

// WriteCSV writes t as RFC 4180 CSV (encoding/csv): the header record,
// then one record per row, text cells through CSVCell (so a name such as
// "=HYPERLINK(...)" is not a formula in a spreadsheet) and numeric ones
// as they are (a negative change stays a number).
func (t Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Header); err != nil {
		return err
	}
	for _, r := range t.Rows {
		r = t.row(r)
		rec := make([]string, len(r))
		for i, c := range r {
			if !t.numeric(i) {
				c = CSVCell(c)
			}
			rec[i] = c
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Notes are the footnotes of a table, in order: Mark numbers them.
type Notes []string

// Mark returns the footnote mark "[n]" for text, adding text to n the
// first time: identical texts share one number.
func (n *Notes) Mark(text string) string {
	for i, t := range *n {
		if t == text {
			return fmt.Sprintf("[%d]", i+1)
		}
	}
	*n = append(*n, text)
	return fmt.Sprintf("[%d]", len(*n))
}

// WriteTerminal writes the notes as terminal lines "  [n] text", a
// note's further lines (a derive refusal has one per field) indented
// under its first, every line through TerminalText.
func (n Notes) WriteTerminal(w io.Writer) error {
	for i, text := range n {
		mark := fmt.Sprintf("  [%d] ", i+1)
		for j, line := range strings.Split(text, "\n") {
			if j > 0 {
				mark = strings.Repeat(" ", len(mark))
			}
			if _, err := fmt.Fprintf(w, "%s%s\n", mark, TerminalText(line)); err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteMarkdown writes the notes as a Markdown list, "- [n] text", a
// note's further lines as hard line breaks inside its item, every line
// through MarkdownCell.
func (n Notes) WriteMarkdown(w io.Writer) error {
	for i, text := range n {
		lines := strings.Split(text, "\n")
		for j, line := range lines {
			lines[j] = MarkdownCell(line)
		}
		if _, err := fmt.Fprintf(w, "- [%d] %s\n", i+1, strings.Join(lines, "  \n  ")); err != nil {
			return err
		}
	}
	return nil
}
