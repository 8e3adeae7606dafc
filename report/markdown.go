package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/results"
)

// Markdown writes doc as GitHub-flavoured Markdown: a heading and a table
// per scenario, footnotes as a list, then the legend and the environment.
// Names and messages from the document go through MarkdownCell, and the
// whole output through TerminalText line by line (the env, the legend).
func Markdown(w io.Writer, doc *results.Run) error {
	return document.WriteTerminal(w, func(w io.Writer) error { return writeMarkdown(w, doc) })
}

// writeMarkdown is Markdown before the terminal escaping.
func writeMarkdown(w io.Writer, doc *results.Run) error {
	ew := document.NewErrWriter(w)
	for _, warn := range doc.Warnings {
		fmt.Fprintf(ew, "> warning: %s\n\n", document.MarkdownCell(warn))
	}
	if l := compressorsLine(doc); l != "" {
		fmt.Fprintf(ew, "%s\n\n", l)
	}
	for _, g := range grids(doc) {
		fmt.Fprintf(ew, "### %s\n\n", document.MarkdownCell(g.title))
		for _, line := range g.source {
			fmt.Fprintf(ew, "> %s  \n", document.MarkdownCell(line))
		}
		if len(g.source) > 0 {
			fmt.Fprintln(ew)
		}
		writeMarkdownGrid(ew, g)
		fmt.Fprintln(ew)
	}
	writeSummaryMarkdown(ew, doc)
	writeSweepMarkdown(ew, doc)
	for _, line := range strings.Split(strings.TrimRight(legend(doc), "\n"), "\n") {
		fmt.Fprintf(ew, "%s  \n", line)
	}
	fmt.Fprint(ew, envText(doc))
	return ew.Err()
}

// writeMarkdownGrid writes g as a Markdown table (document.Table's
// WriteMarkdown) with its footnotes as a list, every note through
// MarkdownCell. A write error stays in ew.
func writeMarkdownGrid(ew *document.ErrWriter, g grid) {
	_ = g.WriteMarkdown(ew) // the error is ew's too

	if len(g.notes) > 0 {
		fmt.Fprintln(ew)
		_ = g.notes.WriteMarkdown(ew) // the error is ew's too
	}
}
