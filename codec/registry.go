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

// Select returns the codecs named by ids, in the order given. An unknown ID is
// an error that lists the valid ones.
func (r *Registry) Select(ids []string) ([]Codec, error) {
	return pick.ByID(r.order, func(c Codec) string { return c.Info().ID }, ids, "codec")
}
