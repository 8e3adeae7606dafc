package report

import (
	"io"
	"strings"

	"github.com/serbench/serbench/document"
)

// terminalLines returns s with each line through document.TerminalText, the line
// breaks kept.
func terminalLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = document.TerminalText(l)
	}
	return strings.Join(lines, "\n")
}

// toTerminal runs write on a buffer and writes what it wrote to w through
// terminalLines: the text writers (Table and the other "table" formats)
// build their output with it, so no text from a results file reaches a
// terminal as a control sequence.
func toTerminal(w io.Writer, write func(io.Writer) error) error {
	var b strings.Builder
	err := write(&b)
	if _, werr := io.WriteString(w, terminalLines(b.String())); err == nil {
		err = werr
	}
	return err
}
