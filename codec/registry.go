package codec

import (
	"fmt"

	"github.com/serbench/serbench/internal/pick"
)

// Registry holds codecs by ID, in the order they were added. A Registry is
// immutable once built (NewRegistry, WithAbsent), so one value is safe to
// share between goroutines and callers: codec/all.Registry and
// codec/defaults.Registry each build theirs once per process.
type Registry struct {
	order []Codec
	byID  map[string]Codec
	// absent maps the IDs of codecs serbench knows but this registry
	// lacks to why (see WithAbsent).
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

// WithAbsent returns a copy of r that also knows the codecs of absent, by
// ID, as ones serbench has but r lacks, each with why (a standard library
// package this toolchain lacks, a codec package the program does not
// link): a line that Select and Resolve return as the error when a user
// names one. An ID r holds is an error naming it; r itself is unchanged.
func (r *Registry) WithAbsent(absent map[string]string) (*Registry, error) {
	out := &Registry{order: r.order, byID: r.byID, absent: r.Absences()}
	for id, why := range absent {
		if _, held := r.byID[id]; held {
			return nil, fmt.Errorf("codec: %q is both held and absent", id)
		}
		out.absent[id] = why
	}
	return out, nil
}

// Absent returns why the codec id is not in this registry, as WithAbsent
// recorded it; ok is false for a codec the registry has or serbench does
// not know.
func (r *Registry) Absent(id string) (why string, ok bool) {
	why, ok = r.absent[id]
	return why, ok
}

// Absences returns a copy of every ID WithAbsent recorded, with why.
func (r *Registry) Absences() map[string]string {
	m := make(map[string]string, len(r.absent))
	for id, why := range r.absent {
		m[id] = why
	}
	return m
}

// absentError is the error for the first of names that WithAbsent recorded,
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
// an error that lists the valid ones; a codec that this registry lacks (see
// WithAbsent), an error saying why.
func (r *Registry) Select(ids []string) ([]Codec, error) {
	if err := r.absentError(ids); err != nil {
		return nil, err
	}
	return pick.ByID(r.order, func(c Codec) string { return c.Info().ID }, ids, "codec")
}
