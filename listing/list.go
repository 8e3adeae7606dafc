package listing

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/results"
)

// ListSchema is the "schema" value of `serbench list -format json`
// (docs/schema/list.schema.json).
const ListSchema = document.List

// ListedCodec is one codec as `serbench list` shows it: its Info and the
// names of the groups it belongs to (codec.GroupsOf).
type ListedCodec struct {
	results.CodecInfo
	Groups []string `json:"groups"`
	// Maintained is codec.Maintained of the Info: serbench's rule on its
	// last release and upstream's archived flag.
	Maintained bool `json:"maintained"`
}

// ListedGroup is one codec group (codec.Groups) with the IDs of its members
// in list order.
type ListedGroup struct {
	Name   string   `json:"name"`
	Doc    string   `json:"doc"`
	Codecs []string `json:"codecs"`
}

// ListedScenario is one scenario as `serbench list` shows it: its ID, Go
// type and the size of its value encoded by encoding/json, in bytes.
type ListedScenario struct {
	ID        string
	Type      string
	JSONBytes int
	JSONErr   error
}

// DerivedCodec is one codec that exists only for a user's own type
// (serbench.Benchmark and Check, not serbench run), as `serbench list`
// shows it: Library is module@version, Derived what is derived from the
// type, Needs what the user must do first.
type DerivedCodec struct {
	ID, Library, Format, Derived, Needs string
}

// Listing is what `serbench list` shows. ListJSON leaves Derived out.
type Listing struct {
	Codecs    []ListedCodec
	Groups    []ListedGroup
	Scenarios []ListedScenario
	Derived   []DerivedCodec
}

// JSONSize returns the length in bytes of v encoded by encoding/json.
func JSONSize(v any) (int, error) {
	b, err := json.Marshal(v)
	return len(b), err
}

// List writes the codecs (ID, library@version, format, kind, "yes" when in
// the default set, what a time.Time keeps, options in effect), a note on
// each library whose upkeep or pinned version a user should know of
// (codec.Info.Status) or whose build has a problem (codec.Info.Warning),
// the groups with their members, the scenarios (ID, Go type, encoded JSON
// size) and, when l has any, the derived codecs as tables.
func List(w io.Writer, l Listing) error {
	if err := document.WriteTerminal(w, func(w io.Writer) error { return list(w, l) }); err != nil || len(l.Derived) == 0 {
		return err
	}
	t := document.Table{Header: []string{"codec", "library", "format", "derived", "needs"}}
	for _, d := range l.Derived {
		t.Rows = append(t.Rows, []string{d.ID, d.Library, d.Format, d.Derived, d.Needs})
	}
	ew := document.NewErrWriter(w)
	fmt.Fprintln(ew, "\nDerived codecs, for your own type (serbench.Benchmark and Check, not serbench run; docs/your-type.md)")
	for _, l := range t.Aligned() {
		fmt.Fprintln(ew, l)
	}
	return ew.Err()
}

// list is List before escaping (document.WriteTerminal).
func list(w io.Writer, l Listing) error {
	ew := document.NewErrWriter(w)
	cg := document.Table{Header: []string{"codec", "library", "format", "kind", "default", "time", "options"}, Numeric: make([]bool, 7)}
	for _, c := range l.Codecs {
		lib := c.Module
		if c.Version != "" {
			lib += "@" + c.Version
		}
		def := ""
		if c.Default {
			def = "yes"
		}
		cg.Rows = append(cg.Rows, []string{c.ID, lib, c.Format, string(c.Kind), def, c.Time, c.Options})
	}
	fmt.Fprintln(ew, "Codecs")
	for _, l := range cg.Aligned() {
		fmt.Fprintln(ew, l)
	}
	var status []string
	for _, c := range l.Codecs {
		if c.Status != "" {
			status = append(status, fmt.Sprintf("  %s: %s", c.ID, c.Status))
		}
		if c.Warning != "" {
			status = append(status, fmt.Sprintf("  %s: warning: %s", c.ID, c.Warning))
		}
	}
	if len(status) > 0 {
		fmt.Fprintln(ew)
		fmt.Fprintln(ew, "Library status")
		for _, l := range status {
			fmt.Fprintln(ew, l)
		}
	}
	if len(l.Groups) > 0 {
		fmt.Fprintln(ew)
		fmt.Fprintln(ew, "Groups (-codecs takes them with codec IDs; group:NAME when a codec has the same ID)")
		for _, g := range l.Groups {
			members := strings.Join(g.Codecs, ", ")
			if members == "" {
				members = "(none)"
			}
			fmt.Fprintf(ew, "  %s (%d): %s\n    %s\n", g.Name, len(g.Codecs), g.Doc, members)
		}
	}
	sg := document.Table{Header: []string{"scenario", "Go type", "JSON bytes"}, Numeric: []bool{false, false, true}}
	for _, s := range l.Scenarios {
		size := fmt.Sprint(s.JSONBytes)
		if s.JSONErr != nil {
			size = "error: " + strings.ReplaceAll(s.JSONErr.Error(), "\n", " ")
		}
		sg.Rows = append(sg.Rows, []string{s.ID, s.Type, size})
	}
	fmt.Fprintln(ew)
	fmt.Fprintln(ew, "Scenarios")
	for _, l := range sg.Aligned() {
		fmt.Fprintln(ew, l)
	}
	return ew.Err()
}

// ListJSON writes l as one indented serbench-list/v1 JSON document:
// {"schema", "codecs": [codec.Info fields plus "groups"], "groups": [{"name",
// "doc", "codecs"}], "scenarios": [{"id", "type", "json_bytes" or
// "json_error"}]}.
func ListJSON(w io.Writer, l Listing) error {
	type scen struct {
		ID        string `json:"id"`
		Type      string `json:"type"`
		JSONBytes *int   `json:"json_bytes,omitempty"`
		JSONError string `json:"json_error,omitempty"`
	}
	doc := struct {
		Schema    string        `json:"schema"`
		Codecs    []ListedCodec `json:"codecs"`
		Groups    []ListedGroup `json:"groups"`
		Scenarios []scen        `json:"scenarios"`
	}{Schema: ListSchema, Codecs: l.Codecs, Groups: l.Groups, Scenarios: []scen{}}
	for _, s := range l.Scenarios {
		x := scen{ID: s.ID, Type: s.Type}
		if s.JSONErr != nil {
			x.JSONError = s.JSONErr.Error()
		} else {
			n := s.JSONBytes
			x.JSONBytes = &n
		}
		doc.Scenarios = append(doc.Scenarios, x)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("report: list: %w", err)
	}
	return nil
}

// ListCodecs returns infos as listed codecs, each with its groups, and every
// group of codec.Groups with its members among infos, in the order of infos.
func ListCodecs(infos []results.CodecInfo) ([]ListedCodec, []ListedGroup) {
	cs := make([]ListedCodec, 0, len(infos))
	for _, i := range infos {
		cs = append(cs, ListedCodec{CodecInfo: i, Groups: append([]string{}, codec.GroupsOf(i.Info)...), Maintained: codec.Maintained(i.Info)})
	}
	var gs []ListedGroup
	for _, g := range codec.Groups() {
		lg := ListedGroup{Name: g.Name, Doc: g.Doc, Codecs: []string{}}
		for _, i := range infos {
			if g.Has(i.Info) {
				lg.Codecs = append(lg.Codecs, i.ID)
			}
		}
		gs = append(gs, lg)
	}
	return cs, gs
}
