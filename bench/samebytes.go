package bench

import (
	"bytes"

	"github.com/serbench/serbench/results"
)

// SameBytes is the one figure comparing rows that the runner sets: it
// needs the cells' encoded bytes, which a run does not keep. The figures
// rows imply from their measured fields (speed-ups, floor ratios, modes)
// are results.NewRun's.

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
