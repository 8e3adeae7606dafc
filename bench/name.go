package bench

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// EscapeNameValue makes an ID usable as the value of a key=value part of a
// Go benchmark name, where '/' separates parts: it writes '/' as '.', and
// '.', '%', white space and control characters as %XX of their UTF-8 bytes,
// so "sonic/default" becomes "sonic.default".
func EscapeNameValue(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '/':
			b.WriteByte('.')
		case r == '.' || r == '%' || unicode.IsSpace(r) || unicode.IsControl(r):
			for _, c := range []byte(string(r)) {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// UnescapeNameValue inverts EscapeNameValue; it returns an error for a
// malformed %XX escape.
func UnescapeNameValue(s string) (string, error) {
	var b bytes.Buffer
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '.':
			b.WriteByte('/')
		case '%':
			if i+2 >= len(s) {
				return "", fmt.Errorf("bad escape %q in %q", s[i:], s)
			}
			x, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", fmt.Errorf("bad escape %q in %q", s[i:i+3], s)
			}
			b.WriteByte(byte(x))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}
