package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/serbench/serbench/codec"
)

// ListedCodec is one codec as `serbench list` shows it.
type ListedCodec struct {
	codec.Info
}

// ListedScenario is one scenario as `serbench list` shows it: its ID, Go
// type and the size of its value encoded by encoding/json, in bytes.
type ListedScenario struct {
	ID        string
	Type      string
	JSONBytes int
	JSONErr   error
}

// JSONSize returns the length in bytes of v encoded by encoding/json.
func JSONSize(v any) (int, error) {
	b, err := json.Marshal(v)
	return len(b), err
}

// List writes the codecs (ID, library@version, format, kind, options in
// effect), a note on each library whose upkeep or pinned version a user
// should know of (codec.Info.Status), and the scenarios (ID, Go type, encoded JSON size) as two tables.
func List(w io.Writer, codecs []ListedCodec, scenarios []ListedScenario) error {
	ew := &errWriter{w: w}
	cg := grid{header: []string{"codec", "library", "format", "kind", "options"}, rightAlign: make([]bool, 5)}
	for _, c := range codecs {
		lib := c.Module
		if c.Version != "" {
			lib += "@" + c.Version
		}
		cg.rows = append(cg.rows, []string{c.ID, lib, c.Format, string(c.Kind), c.Options})
	}
	fmt.Fprintln(ew, "Codecs")
	for _, l := range align(cg) {
		fmt.Fprintln(ew, l)
	}
	var status []string
	for _, c := range codecs {
		if c.Status != "" {
			status = append(status, fmt.Sprintf("  %s: %s", c.ID, c.Status))
		}
	}
	if len(status) > 0 {
		fmt.Fprintln(ew)
		fmt.Fprintln(ew, "Library status")
		for _, l := range status {
			fmt.Fprintln(ew, l)
		}
	}
	sg := grid{header: []string{"scenario", "Go type", "JSON bytes"}, rightAlign: []bool{false, false, true}}
	for _, s := range scenarios {
		size := fmt.Sprint(s.JSONBytes)
		if s.JSONErr != nil {
			size = "error: " + strings.ReplaceAll(s.JSONErr.Error(), "\n", " ")
		}
		sg.rows = append(sg.rows, []string{s.ID, s.Type, size})
	}
	fmt.Fprintln(ew)
	fmt.Fprintln(ew, "Scenarios")
	for _, l := range align(sg) {
		fmt.Fprintln(ew, l)
	}
	return ew.err
}
