package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/serbench/serbench/document"
)

// Markdown writes doc as GitHub-flavoured Markdown: a heading and a table
// per scenario, footnotes as a list, then the legend and the environment.
func Markdown(w io.Writer, doc *Document) error {
	ew := document.NewErrWriter(w)
	for _, warn := range doc.Warnings {
		fmt.Fprintf(ew, "> warning: %s\n\n", warn)
	}
	if l := compressorsLine(doc); l != "" {
		fmt.Fprintf(ew, "%s\n\n", l)
	}
	for _, g := range grids(doc) {
		fmt.Fprintf(ew, "### %s\n\n", g.title)
		for _, line := range g.source {
			fmt.Fprintf(ew, "> %s  \n", strings.ReplaceAll(line, "|", `\|`))
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

// writeMarkdownGrid writes g as a Markdown table with its footnotes as a list.
func writeMarkdownGrid(ew io.Writer, g grid) {
	fmt.Fprintf(ew, "| %s |\n", strings.Join(g.header, " | "))
	seps := make([]string, len(g.header))
	for i, right := range g.rightAlign {
		seps[i] = "---"
		if right {
			seps[i] = "--:"
		}
	}
	fmt.Fprintf(ew, "|%s|\n", strings.Join(seps, "|"))
	for _, r := range g.rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = strings.ReplaceAll(c, "|", `\|`)
		}
		fmt.Fprintf(ew, "| %s |\n", strings.Join(cells, " | "))
	}
	if len(g.notes) > 0 {
		fmt.Fprintln(ew)
		for n, note := range g.notes {
			fmt.Fprintf(ew, "- [%d] %s\n", n+1, strings.ReplaceAll(note, "\n", " "))
		}
	}
}
