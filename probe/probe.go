// Package probe is serbench's fidelity catalog: small Go values that each
// test one thing a codec may keep, change or refuse (the extremes of int64,
// a NaN, a time in a named zone, a nil slice, invalid UTF-8, a cycle, ...),
// and a runner that sends every probe through every codec and says, per
// cell, whether the value came back (Kept), came back different (Changed,
// with the first difference), failed (Error, with the message) or could not
// be tried (NA, with the reason).
//
// A cell never crashes the caller: every library call runs under recover
// (a panic is an Error cell, "panic: ...") and a time limit. Probes that can
// make a library recurse without end (a cyclic value) set Isolate: Run hands
// them to Options.Isolate, which runs the cell in a child process (see
// Child), because a goroutine stack overflow is fatal to a Go process and
// cannot be recovered.
package probe

import (
	"fmt"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/pick"
)

// Status is the outcome of one probe through one codec: codec.Outcome,
// the round-trip status every serbench document shares.
type Status = codec.Outcome

// The four outcomes of a cell, under the names this package has always
// given them.
const (
	Kept    = codec.Kept    // the decoded value equals the original
	Changed = codec.Changed // it decoded without error but differs
	Error   = codec.Failed  // marshal, unmarshal or conversion failed, or the library panicked
	NA      = codec.NA      // the codec cannot be given this type (no schema, say)
)

// Probe is one value to round-trip.
type Probe struct {
	// ID is the probe's stable ID: "float-nan", "time-zone", ...
	ID string
	// Group gathers related probes for reports: "integers", "floats",
	// "time", "nil and empty", "bytes", "strings", "structs", "interfaces",
	// "maps", "pointers", "depth".
	Group string
	// Doc says in a few words what the value is and, when not obvious, why
	// it is interesting.
	Doc string
	// New returns a new pointer to the value, a struct (each call a fresh
	// copy, so a codec that writes into its input cannot spoil the next cell).
	New func() any
	// Compare returns nil when got (what Unmarshal returned) equals want
	// (what New returned), or an error describing the first difference,
	// preferably a *fidelity.Mismatch. Nil means fidelity.Diff.
	Compare func(want, got any) error
	// Wire, when set, returns a note about the encoded bytes of a kept
	// value (HTML characters escaped or not, say), or "" for none.
	Wire func(info codec.Info, data []byte) string
	// Isolate is true when a library may recurse without bound on the value;
	// Run then never calls the library in its own process.
	Isolate bool
	// WantError is true when an error is the right answer (a cycle).
	WantError bool
	// Seed, when set, carries the probe's value in one field of a seed
	// scenario value, for codecs that cannot bind the probe's own type
	// but have a schema for that scenario (the codegen codecs and wire).
	Seed *Seed
}

// Seed places a probe's value in a field of a seed scenario's value.
type Seed struct {
	// Field names the scenario and the field: "ws-message .Content".
	Field string
	// New returns a new seed value (a pointer, as scenario.Seeds gives)
	// with the probe's value in Field.
	New func() any
	// Get returns Field of a value of that type; the probe's comparison
	// is applied to Get(want) and Get(got) only.
	Get func(v any) any
}

// Info is the part of a Probe that reports show.
type Info struct {
	ID        string `json:"id"`
	Group     string `json:"group"`
	Doc       string `json:"doc"`
	WantError bool   `json:"want_error,omitempty"`
}

// Info returns p's description.
func (p Probe) Info() Info { return Info{ID: p.ID, Group: p.Group, Doc: p.Doc, WantError: p.WantError} }

// Cell is the outcome of one probe through one codec.
type Cell struct {
	Codec  string `json:"codec"`
	Probe  string `json:"probe"`
	Status Status `json:"status"`
	// Path, Want and Got describe the first difference of a Changed cell
	// (see fidelity.Mismatch; Path "" is the root).
	Path string `json:"path,omitempty"`
	Want string `json:"want,omitempty"`
	Got  string `json:"got,omitempty"`
	// Error is the error of an Error cell and the reason of an NA cell.
	Error string `json:"error,omitempty"`
	// Note is the probe's remark on the encoded bytes of a Kept cell.
	Note string `json:"note,omitempty"`
	// Size is the encoded size in bytes, 0 when marshal failed.
	Size int `json:"size_bytes,omitempty"`
	// Via is the Seed.Field the probe went through when the codec could
	// not take the probe's own type; "" otherwise.
	Via string `json:"via,omitempty"`
}

// Detail is the cell's explanation in one line: "want X → got Y" (with
// the path first) for Changed, the error or reason for Error and NA, the
// note for Kept; then "(via SCENARIO .FIELD)" when the probe went through
// a seed scenario; "" when there is nothing to say.
func (c Cell) Detail() string {
	var d string
	switch c.Status {
	case Changed:
		switch {
		case c.Path != "":
			d = fmt.Sprintf("%s: %s → %s", c.Path, c.Want, c.Got)
		case c.Via != "":
			d = fmt.Sprintf("%s → %s", c.Want, c.Got) // the field is in "via"
		default:
			d = fmt.Sprintf("(root): %s → %s", c.Want, c.Got)
		}
	case Error, NA:
		d = c.Error
	default:
		d = c.Note
	}
	if c.Via != "" {
		if d == "" {
			return "via " + c.Via
		}
		return d + " (via " + c.Via + ")"
	}
	return d
}

// Select returns the probes of ps named by ids, in the order given. An
// unknown ID is an error that lists the valid ones.
func Select(ps []Probe, ids []string) ([]Probe, error) {
	out, err := pick.ByID(ps, func(p Probe) string { return p.ID }, ids, "probe")
	if err != nil {
		return nil, fmt.Errorf("probe: %w", err)
	}
	return out, nil
}

// Lookup returns the probe of Catalog with the given ID.
func Lookup(id string) (Probe, bool) {
	for _, p := range Catalog() {
		if p.ID == id {
			return p, true
		}
	}
	return Probe{}, false
}
