package bench

import (
	"github.com/serbench/serbench/codec"
)

// EscapeNameValue makes an ID usable as the value of a key=value part of a
// Go benchmark name, where '/' separates parts: it is codec.EscapeID, so
// "sonic/fastest" becomes "sonic.fastest".
func EscapeNameValue(s string) string { return codec.EscapeID(s) }

// UnescapeNameValue inverts EscapeNameValue (codec.UnescapeID).
func UnescapeNameValue(s string) (string, error) { return codec.UnescapeID(s) }
