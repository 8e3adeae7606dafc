package document

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The escaping every writer applies to text that came from a results file
// (codec, scenario and op names, error messages, env fields): a results
// file is untrusted input, and its text must reach a terminal, a Markdown
// page or a spreadsheet as text, never as a command.

// TerminalText returns s with everything a terminal would act on rather
// than print written as a Go escape: C0 and C1 control characters
// (ESC starts the sequences that move the cursor, retitle the window or
// write the clipboard), DEL, tab and newline (they break table columns),
// the bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069,
// which reorder what is shown) and invalid UTF-8 bytes. Printable text,
// including non-ASCII letters, is unchanged: TerminalText("a\x1b[2Jb") is
// `a\x1b[2Jb` as six visible characters plus the letters.
func TerminalText(s string) string {
	if !needsTerminalEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x80 && (unicode.IsControl(r)):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.IsControl(r) || isBidi(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// needsTerminalEscape reports whether TerminalText would change s.
func needsTerminalEscape(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unicode.IsControl(r) || isBidi(r) {
			return true
		}
		i += size
	}
	return false
}

// isBidi reports whether r is a bidirectional embedding, override or
// isolate control (Unicode TR9), which reorders the text around it.
func isBidi(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069
}

// markdownEscaper backslash-escapes what Markdown (CommonMark and GitHub
// Flavored Markdown tables) gives a meaning to inside a table cell: the
// escape character, code spans, emphasis, the cell separator,
// strikethrough (a run of two tildes) and inline links and images (a ']'
// followed by '('); and writes < > & as HTML entities, so raw HTML and
// autolinks show as text. A lone '~' or "[1]" (serbench's own "not
// significant" and footnote marks) cannot start any of these and stays as
// it is.
var markdownEscaper = strings.NewReplacer(
	"<", "&lt;", ">", "&gt;", "&", "&amp;",
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "|", `\|`,
	"~~", `\~\~`, "](", `]\(`,
)

// MarkdownCell returns s as the text of one Markdown table cell, list item
// or heading: what TerminalText escapes, with newlines as spaces, then
// every Markdown special character escaped (markdownEscaper), so that a
// name or message from a results file shows as the text it is. Every
// Markdown table writer of this package passes the text of its cells
// through it.
func MarkdownCell(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	return markdownEscaper.Replace(TerminalText(s))
}

// CSVCell returns s safe to open in a spreadsheet: a cell that starts with
// = + - @, a tab or a carriage return (which spreadsheets read as a
// formula, so "=HYPERLINK(...)" would run) gets a leading single quote, as
// OWASP's "CSV Injection" guidance recommends
// (https://owasp.org/www-community/attacks/CSV_Injection). Numbers the
// writers format themselves do not pass through it, so a negative change
// such as -12.5% stays a number.
func CSVCell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}

// TerminalLines returns s with each line through TerminalText, the line
// breaks kept.
func TerminalLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = TerminalText(l)
	}
	return strings.Join(lines, "\n")
}

// WriteTerminal runs write on a buffer and writes what it wrote to w
// through TerminalLines: the text writers (the "table" formats) build
// their output with it, so no text from a results file reaches a
// terminal as a control sequence. It returns write's error, else w's.
func WriteTerminal(w io.Writer, write func(io.Writer) error) error {
	var b strings.Builder
	err := write(&b)
	if _, werr := io.WriteString(w, TerminalLines(b.String())); err == nil {
		err = werr
	}
	return err
}
