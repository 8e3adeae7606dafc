package flatbuffers

import (
	"math"

	"github.com/serbench/serbench/codec/flatbuffers/fb"
)

// The touch functions read every field of a table in place through the
// generated accessors, as a reader of the lazy variant would: every scalar,
// every string (as a slice of the input, never copied) and every element of
// every vector. They fold what they read into a checksum so that the
// compiler cannot drop a read and the work is not skipped; the checksum
// itself means nothing. Each charges what it reads to g (expansion.go),
// a vector before its loop, so a walk stops at the expansion bound.

// Sizes charged per vector element (expansion.go): an offset and the head
// of the table or string it names; a Box struct.
const (
	refBytes = 8
	boxBytes = 24
)

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func touchTime(t *fb.Time) uint64 {
	if t == nil {
		return 0
	}
	return uint64(t.UnixNanos()) ^ uint64(t.OffsetSeconds())
}

func touchEntry(e *fb.StringEntry, g *budget) uint64 {
	return g.str(e.Key()) + g.str(e.Value())
}

func touchSSE(r *fb.SSEEvent, g *budget) uint64 {
	sum := g.str(r.Id()) + g.str(r.Event()) + g.str(r.Data()) + b2u(r.Replay())
	var e fb.StringEntry
	for j := range g.vec(r.MetaLength(), refBytes) {
		if r.Meta(&e, j) {
			sum += touchEntry(&e, g)
		}
	}
	return sum
}

func touchWS(r *fb.WSMessage, g *budget) uint64 {
	return g.str(r.Uid()) + g.str(r.Content()) + uint64(r.Timestamp())
}

func touchUserEvent(r *fb.UserEvent, g *budget) uint64 {
	sum := r.EventId() + r.UserId() + g.str(r.SessionId()) + g.str(r.Type())
	var tm fb.Time
	sum += touchTime(r.OccurredAt(&tm))
	var src fb.EventSource
	if r.Source(&src) != nil {
		sum += g.str(src.App()) + g.str(src.Version()) + g.str(src.Os()) + g.str(src.Ip()) + g.str(src.Locale())
	}
	for j := range g.vec(r.TagsLength(), refBytes) {
		sum += g.str(r.Tags(j))
	}
	var it fb.EventItem
	for j := range g.vec(r.ItemsLength(), refBytes) {
		if r.Items(&it, j) {
			sum += g.str(it.Sku()) + g.str(it.Name()) + g.str(it.Currency()) + uint64(it.Quantity()) + math.Float64bits(it.Price())
		}
	}
	var attr fb.StringMapEntry
	var e fb.StringEntry
	for j := range g.vec(r.AttributesLength(), refBytes) {
		if !r.Attributes(&attr, j) {
			continue
		}
		sum += g.str(attr.Key())
		for k := range g.vec(attr.ValueLength(), refBytes) {
			if attr.Value(&e, k) {
				sum += touchEntry(&e, g)
			}
		}
	}
	for j := range g.vec(r.ScoresLength(), 8) {
		sum += math.Float64bits(r.Scores(j))
	}
	for j := range g.vec(r.FlagsLength(), 1) {
		sum += b2u(r.Flags(j))
	}
	return sum
}

func touchAnnotation(r *fb.Annotation, g *budget) uint64 {
	sum := g.str(r.Id()) + g.str(r.Annotator()) + uint64(r.Timestamp())
	var l fb.Label
	var box fb.BBox
	for j := range g.vec(r.LabelsLength(), refBytes) {
		if !r.Labels(&l, j) {
			continue
		}
		sum += g.str(l.Name()) + uint64(math.Float32bits(l.Confidence()))
		if l.Box(&box) != nil {
			sum += uint64(math.Float32bits(box.X()) ^ math.Float32bits(box.Y()) ^ math.Float32bits(box.W()) ^ math.Float32bits(box.H()))
		}
	}
	return sum
}

func touchProfile(r *fb.UserProfile, g *budget) uint64 {
	sum := uint64(r.Id()) + g.str(r.Name()) + g.str(r.Email()) + b2u(r.IsActive())
	var a fb.Address
	for j := range g.vec(r.AddressesLength(), refBytes) {
		if r.Addresses(&a, j) {
			sum += g.str(a.Street()) + g.str(a.City()) + g.str(a.State()) + g.str(a.ZipCode()) + b2u(a.IsBilling())
		}
	}
	var tm fb.Time
	sum += touchTime(r.CreatedAt(&tm))
	var e fb.StringEntry
	for j := range g.vec(r.MetadataLength(), refBytes) {
		if r.Metadata(&e, j) {
			sum += touchEntry(&e, g)
		}
	}
	return sum
}
