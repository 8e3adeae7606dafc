// Package scenario holds the payloads serbench measures: the five seed
// scenarios of docs/reference.md, "Scenarios" as Go types with deterministic generators, and the
// Scenario type that corpora (package corpus) produce too.
package scenario

import (
	"fmt"
	"sort"
	"strings"
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
}

// Seeds returns the five seed scenarios of docs/reference.md, "Scenarios", in the order of that
// section. Their values are generated from fixed seeds, so they are the same
// on every run and every machine.
func Seeds() []Scenario {
	return []Scenario{
		seed("sse-event", "one Server-Sent Events message whose data is a small JSON text", func() any { return NewSSEEvent() }),
		seed("user-event", "a structured user event of about 1.2 KiB as JSON, with a nested map, slices, a time.Time and uint64 IDs above 2^53", func() any { return NewUserEvent() }),
		seed("ws-message", "a chat message pushed over WebSocket", func() any { return NewWSMessage() }),
		seed("annotation", "a data-labelling record: labels with float32 confidences and bounding boxes", func() any { return NewAnnotation() }),
		seed("user-profile", "a user profile with addresses, a creation time and metadata", func() any { return NewUserProfile() }),
	}
}

func seed(id, doc string, mk func() any) Scenario {
	v := mk()
	return Scenario{ID: id, Type: fmt.Sprintf("%T", v), Doc: doc, Value: func() any { return v }}
}

// Select returns the scenarios of all named by ids, in the order given. An
// unknown ID is an error that lists the valid ones.
func Select(all []Scenario, ids []string) ([]Scenario, error) {
	byID := make(map[string]Scenario, len(all))
	for _, s := range all {
		byID[s.ID] = s
	}
	var out []Scenario
	var unknown []string
	for _, id := range ids {
		s, ok := byID[id]
		if !ok {
			unknown = append(unknown, fmt.Sprintf("%q", id))
			continue
		}
		out = append(out, s)
	}
	if len(unknown) > 0 {
		valid := make([]string, 0, len(all))
		for _, s := range all {
			valid = append(valid, s.ID)
		}
		sort.Strings(valid)
		return nil, fmt.Errorf("unknown scenario %s (valid: %s)", strings.Join(unknown, ", "), strings.Join(valid, ", "))
	}
	return out, nil
}
