// Package scenario holds the payloads serbench measures: the five seed
// scenarios of docs/reference.md, "Scenarios" as Go types with deterministic generators, and the
// Scenario type that corpora (package corpus) produce too.
package scenario

import (
	"fmt"

	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/internal/pick"
)

// Scenario is one payload: a Go value that every codec marshals and unmarshals.
type Scenario struct {
	// ID is the stable ID of docs/reference.md, "Scenarios" ("sse-event", "corpus/twitter_status", ...).
	ID string
	// Type is the Go type of the value, as %T prints it ("*scenario.SSEEvent").
	Type string
	// Doc says in a sentence what the payload is and where it comes from.
	Doc string
	// Value returns the payload as a non-nil pointer. Each call returns the
	// same value; callers must not modify it.
	Value func() any
	// New returns a new zero value of Value's type, a non-nil pointer
	// (new(T) for a Value of type *T), for the codecs that decode into
	// the caller's type by reflection (codec.BindNew): they then make
	// their values as a plain loop would, not with reflect.New. Nil where
	// the type is known only at run time (a user's corpus).
	New func() any
	// Compare, when set, says whether got, the value a codec decoded, keeps
	// what the scenario holds: nil if it does, or an error (a
	// *fidelity.Mismatch) naming the first difference. Nil means
	// fidelity.Diff(Value(), got). A user's JSON file (package corpus) sets
	// it to compare against what the file holds rather than against a Go
	// value, numbers as exact values.
	Compare func(got any) error
	// Source lists what decoding the scenario's JSON document with
	// encoding/json into any loses (integers above 2^53, duplicate keys,
	// ...), one entry per kind, in a fixed order. Empty for the seeds and
	// the toolchain corpora, whose Go types lose nothing, and for a user's
	// file that holds nothing encoding/json changes.
	Source []SourceLoss
	// Sweep describes the point of the size sweep the scenario is (see
	// Sweep); nil for every other scenario.
	Sweep *SweepPoint
	// Elements is the number of elements of a list workload (the
	// annotation workloads, annot/*): reports divide the encoded size by it
	// (B/elem). 0 for scenarios that are not a list of like elements.
	Elements int
	// Messages, when set, makes the scenario a message corpus (a JSON Lines
	// file, see package corpus): a stream of separate messages that every
	// codec marshals and unmarshals one by one in turn, each round trip
	// checked with the message's own Compare. Value then returns the first
	// message, for the commands that take one value. Nil for every other
	// scenario.
	Messages []Message
}

// Message is one message of a message corpus (Scenario.Messages).
type Message struct {
	// Line is the message's line number in its file, from 1.
	Line int
	// Value is the message as a non-nil pointer; callers must not modify it.
	Value any
	// Compare says whether got, a codec's decoding of Value, keeps what
	// the line holds: nil, or the first difference. Nil means
	// fidelity.Diff(Value, got).
	Compare func(got any) error
}

// Diff reports whether got keeps what m holds: m.Compare(got) when set,
// fidelity.Diff(m.Value, got) otherwise.
func (m Message) Diff(got any) error {
	if m.Compare != nil {
		return m.Compare(got)
	}
	return fidelity.Diff(m.Value, got)
}

// Diff reports whether got keeps what s holds: s.Compare(got) when set,
// fidelity.Diff(s.Value(), got) otherwise.
func (s Scenario) Diff(got any) error {
	if s.Compare != nil {
		return s.Compare(got)
	}
	return fidelity.Diff(s.Value(), got)
}

// SourceLoss is one kind of change that decoding a JSON document with
// encoding/json into any (objects as map[string]any, numbers as float64)
// makes to what the document holds, before any codec sees it.
type SourceLoss struct {
	// Kind names the change, for example "integer above 2^53 rounded" or
	// "duplicate key, earlier values dropped".
	Kind string `json:"kind"`
	// Count is the number of places in the document where it happens.
	Count int `json:"count"`
	// Path locates the first place, written as fidelity paths are:
	// `["statuses"][0]["id"]`, "" for the root.
	Path string `json:"path"`
	// Text is the JSON text there, as in the file (cut to 60 bytes).
	Text string `json:"text"`
	// Decoded is what encoding/json into any makes of it, written as JSON
	// (or the error it returns).
	Decoded string `json:"decoded"`
}

// String describes l in one line: `integer above 2^53 rounded (25×),
// first ["data"][1]["id"]: 1849205512907743233 in the file, 1849205512907743200 after decoding`.
func (l SourceLoss) String() string {
	p := l.Path
	if p == "" {
		p = "(root)"
	}
	return fmt.Sprintf("%s (%d×), first %s: %s in the file, %s after decoding", l.Kind, l.Count, p, l.Text, l.Decoded)
}

// Seeds returns the five seed scenarios of docs/reference.md, "Scenarios", in the order of that
// section. Their values are generated from fixed seeds, so they are the same
// on every run and every machine.
func Seeds() []Scenario {
	return []Scenario{
		seed("sse-event", "one Server-Sent Events message whose data is a small JSON text", NewSSEEvent),
		seed("user-event", "a structured user event of about 1.2 KiB as JSON, with a nested map, slices, a time.Time and uint64 IDs above 2^53", NewUserEvent),
		seed("ws-message", "a chat message pushed over WebSocket", NewWSMessage),
		seed("annotation", "a data-labelling record: labels with float32 confidences and bounding boxes", NewAnnotation),
		seed("user-profile", "a user profile with addresses, a creation time and metadata", NewUserProfile),
	}
}

func seed[T any](id, doc string, mk func() *T) Scenario {
	v := mk()
	return Scenario{ID: id, Type: fmt.Sprintf("%T", v), Doc: doc, Value: func() any { return v }, New: NewOf[T]}
}

// NewOf returns new(T) as an any: Scenario.New for a Value of type *T.
func NewOf[T any]() any { return new(T) }

// Select returns the scenarios of all named by ids, in the order given. An
// unknown ID is an error that lists the valid ones.
func Select(all []Scenario, ids []string) ([]Scenario, error) {
	return pick.ByID(all, func(s Scenario) string { return s.ID }, ids, "scenario")
}
