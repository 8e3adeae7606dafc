package results

import "strings"

// NoteText puts s, a reason that may span lines (a derive refusal has one
// line per field), on one line of a "// serbench:" note in a benchmark
// file: white space inside each line collapses to single spaces, a
// backslash is written `\\` and each line break `\n` (backslash, letter
// n), so that benchstat sees one comment line and UnnoteText gives the
// lines back.
func NoteText(s string) string {
	lines := strings.Split(s, "\n")
	keep := lines[:0]
	for _, l := range lines {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			keep = append(keep, strings.ReplaceAll(l, `\`, `\\`))
		}
	}
	return strings.Join(keep, `\n`)
}

// UnnoteText inverts NoteText: `\n` becomes a line break and `\\` a
// backslash; any other backslash (a note written before NoteText existed)
// is kept as it is.
func UnnoteText(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == 'n' || s[i+1] == '\\') {
			if s[i+1] == 'n' {
				b.WriteByte('\n')
			} else {
				b.WriteByte('\\')
			}
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
