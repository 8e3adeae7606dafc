package derive

import (
	"fmt"
	"strings"

	"github.com/serbench/serbench/document"
)

// String is the hints as a table: field, Go type, what was seen, the
// suggested protobuf and Avro types, the protobuf and the Avro bytes of
// the sample before → after and the change in percent ("n/a" for Avro
// when avro/derived cannot take the sample), and the marshal ns/op before
// → after when TimeMarshal has run, in columns two spaces apart
// (document.Table.Aligned, every column text). "" when there are no
// hints.
func (hs Hints) String() string {
	if len(hs) == 0 {
		return ""
	}
	timed := hs[0].MarshalBefore > 0
	t := document.Table{Header: []string{"field", "Go type", "seen", "protobuf", "Avro", "protobuf bytes", "Avro bytes"}}
	if timed {
		t.Header = append(t.Header, "marshal ns/op")
	}
	for _, h := range hs {
		avroBytes := "n/a"
		if h.AvroBefore >= 0 {
			avroBytes = fmt.Sprintf("%d → %d (%s)", h.AvroBefore, h.AvroAfter, change(float64(h.AvroBefore), float64(h.AvroAfter)))
		}
		row := []string{h.Path, h.GoType, h.Seen, h.Proto, h.Avro, fmt.Sprintf("%d → %d (%s)", h.Before, h.After, change(float64(h.Before), float64(h.After))), avroBytes}
		if timed {
			row = append(row, fmt.Sprintf("%.0f → %.0f (%s)", h.MarshalBefore, h.MarshalAfter, change(h.MarshalBefore, h.MarshalAfter)))
		}
		t.Rows = append(t.Rows, row)
	}
	return strings.Join(t.Aligned(), "\n")
}

// change is after relative to before in percent, "+0%" for none.
func change(before, after float64) string {
	if before == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%+.0f%%", 100*(after-before)/before)
}
