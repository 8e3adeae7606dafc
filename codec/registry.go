package codec

import (
	"fmt"

	"github.com/serbench/serbench/internal/pick"
)

// Registry holds codecs by ID, in the order they were added.
type Registry struct {
	order []Codec
	byID  map[string]Codec
	// linked is set on Linked's registries: a shipped codec they lack is
	// one the program does not link.
	linked bool
	// absent maps the IDs of codecs serbench knows but this build lacks
	// to why (see SetAbsent).
	absent map[string]string
}

// NewRegistry returns a registry holding cs. It returns an error naming the ID
// if two codecs share one or an ID is empty.
func NewRegistry(cs ...Codec) (*Registry, error) {
	r := &Registry{byID: make(map[string]Codec, len(cs))}
	for _, c := range cs {
		id := c.Info().ID
		if id == "" {
			return nil, fmt.Errorf("codec: empty ID for %T", c)
		}
		if _, dup := r.byID[id]; dup {
			return nil, fmt.Errorf("codec: duplicate ID %q", id)
		}
		r.byID[id] = c
		r.order = append(r.order, c)
	}
	return r, nil
}

// All returns every codec in registration order.
func (r *Registry) All() []Codec { return append([]Codec(nil), r.order...) }

// IDs returns every codec ID in registration order.
func (r *Registry) IDs() []string {
	ids := make([]string, len(r.order))
	for i, c := range r.order {
		ids[i] = c.Info().ID
	}
	return ids
}

// Lookup returns the codec with the given ID.
func (r *Registry) Lookup(id string) (Codec, bool) {
	c, ok := r.byID[id]
	return c, ok
}

// SetAbsent records that the codec id exists in serbench but not in this
// build (a standard library package the toolchain lacks, say), with why: a
// line that Select and Resolve return as the error when a user names it.
func (r *Registry) SetAbsent(id, why string) {
	if r.absent == nil {
		r.absent = map[string]string{}
	}
	r.absent[id] = why
}

// Absent returns why the codec id is not in this build, as SetAbsent
// recorded it; ok is false for a codec the build has or serbench does not
// know.
func (r *Registry) Absent(id string) (why string, ok bool) {
	why, ok = r.absent[id]
	return why, ok
}

// Absences returns a copy of every ID SetAbsent recorded, with why.
func (r *Registry) Absences() map[string]string {
	m := make(map[string]string, len(r.absent))
	for id, why := range r.absent {
		m[id] = why
	}
	return m
}

// absentError is the error for the first of names that SetAbsent recorded,
// nil when none is.
func (r *Registry) absentError(names []string) error {
	for _, n := range names {
		if why, ok := r.absent[n]; ok {
			return fmt.Errorf("codec %q: %s", n, why)
		}
	}
	return nil
}

// Select returns the codecs named by ids, in the order given. An unknown ID is
// an error that lists the valid ones; a codec that this build lacks (see
// SetAbsent), an error saying why.
func (r *Registry) Select(ids []string) ([]Codec, error) {
	if err := r.absentError(ids); err != nil {
		return nil, err
	}
	return pick.ByID(r.order, func(c Codec) string { return c.Info().ID }, ids, "codec")
}
