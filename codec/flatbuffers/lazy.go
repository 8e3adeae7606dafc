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
// itself means nothing.

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

func touchEntry(e *fb.StringEntry) uint64 {
	return uint64(len(e.Key()) + len(e.Value()))
}

func touchSSE(r *fb.SSEEvent) uint64 {
	sum := uint64(len(r.Id())+len(r.Event())+len(r.Data())) + b2u(r.Replay())
	var e fb.StringEntry
	for j := range r.MetaLength() {
		if r.Meta(&e, j) {
			sum += touchEntry(&e)
		}
	}
	return sum
}

func touchWS(r *fb.WSMessage) uint64 {
	return uint64(len(r.Uid())+len(r.Content())) + uint64(r.Timestamp())
}

func touchUserEvent(r *fb.UserEvent) uint64 {
	sum := r.EventId() + r.UserId() + uint64(len(r.SessionId())+len(r.Type()))
	var tm fb.Time
	sum += touchTime(r.OccurredAt(&tm))
	var src fb.EventSource
	if r.Source(&src) != nil {
		sum += uint64(len(src.App()) + len(src.Version()) + len(src.Os()) + len(src.Ip()) + len(src.Locale()))
	}
	for j := range r.TagsLength() {
		sum += uint64(len(r.Tags(j)))
	}
	var it fb.EventItem
	for j := range r.ItemsLength() {
		if r.Items(&it, j) {
			sum += uint64(len(it.Sku())+len(it.Name())+len(it.Currency())) + uint64(it.Quantity()) + math.Float64bits(it.Price())
		}
	}
	var attr fb.StringMapEntry
	var e fb.StringEntry
	for j := range r.AttributesLength() {
		if !r.Attributes(&attr, j) {
			continue
		}
		sum += uint64(len(attr.Key()))
		for k := range attr.ValueLength() {
			if attr.Value(&e, k) {
				sum += touchEntry(&e)
			}
		}
	}
	for j := range r.ScoresLength() {
		sum += math.Float64bits(r.Scores(j))
	}
	for j := range r.FlagsLength() {
		sum += b2u(r.Flags(j))
	}
	return sum
}

func touchAnnotation(r *fb.Annotation) uint64 {
	sum := uint64(len(r.Id())+len(r.Annotator())) + uint64(r.Timestamp())
	var l fb.Label
	var box fb.BBox
	for j := range r.LabelsLength() {
		if !r.Labels(&l, j) {
			continue
		}
		sum += uint64(len(l.Name())) + uint64(math.Float32bits(l.Confidence()))
		if l.Box(&box) != nil {
			sum += uint64(math.Float32bits(box.X()) ^ math.Float32bits(box.Y()) ^ math.Float32bits(box.W()) ^ math.Float32bits(box.H()))
		}
	}
	return sum
}

func touchProfile(r *fb.UserProfile) uint64 {
	sum := uint64(r.Id()) + uint64(len(r.Name())+len(r.Email())) + b2u(r.IsActive())
	var a fb.Address
	for j := range r.AddressesLength() {
		if r.Addresses(&a, j) {
			sum += uint64(len(a.Street())+len(a.City())+len(a.State())+len(a.ZipCode())) + b2u(a.IsBilling())
		}
	}
	var tm fb.Time
	sum += touchTime(r.CreatedAt(&tm))
	var e fb.StringEntry
	for j := range r.MetadataLength() {
		if r.Metadata(&e, j) {
			sum += touchEntry(&e)
		}
	}
	return sum
}
