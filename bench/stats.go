package bench

import (
	"bytes"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
)

// The figures one row takes from others (speed-ups, floor and JSON
// ratios) are package results's (results.AddSpeedups, ...), so that the
// runner and a file read back compute them one way; what needs the cells
// themselves (the encoded bytes of SameBytes) is here.

// referenceID returns the ID of the first codec of Kind Reference, or "".
func referenceID(codecs []codec.Codec) string {
	for _, c := range codecs {
		if c.Info().Kind == codec.Reference {
			return c.Info().ID
		}
	}
	return ""
}

// addSameBytes sets SameBytes on the marshal results whose round-trip
// output equals the baseline codec's on the same scenario.
func addSameBytes(rows []results.Row, cells []*cell, baseline string) {
	base := map[string][]byte{}
	for _, c := range cells {
		if c.Codec == baseline && c.Op == results.OpMarshal && c.encoded != nil {
			base[c.Scenario] = c.encoded
		}
	}
	for i, c := range cells {
		if b, ok := base[c.Scenario]; ok && c.Op == results.OpMarshal && c.encoded != nil && rows[i].OK {
			rows[i].SameBytes = bytes.Equal(b, c.encoded)
		}
	}
}
