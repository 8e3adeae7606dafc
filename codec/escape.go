package codec

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// EscapeID writes a codec or scenario ID as one path element, the single
// escaping serbench uses wherever an ID goes into a name with its own
// separators: the value of a key=value part of a Go benchmark name, a
// profile's file name (<codec>_<scenario>_<op>.pprof) and a WebSocket
// subprotocol (serbench.<codec>). It writes '/' as '.', and '.', '%', white
// space and control characters as %XX of their UTF-8 bytes, so
// "encoding/json" becomes "encoding.json". Every ID of codec/all has only
// letters, digits, '-' and '/', so for those it is exactly '/' written as
// '.', the subprotocol names serbench has always used. UnescapeID inverts
// it.
func EscapeID(s string) string {
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

// UnescapeID inverts EscapeID; it returns an error for a malformed %XX
// escape.
func UnescapeID(s string) (string, error) {
	var b bytes.Buffer
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '.':
			b.WriteByte('/')
		case '%':
			if i+2 >= len(s) {
				return "", fmt.Errorf("codec: bad escape %q in %q", s[i:], s)
			}
			x, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", fmt.Errorf("codec: bad escape %q in %q", s[i:i+3], s)
			}
			b.WriteByte(byte(x))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}
