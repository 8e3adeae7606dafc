package capnp

import (
	"math"

	"github.com/serbench/serbench/codec/capnp/capnpb"
)

// The touch functions read every field of a root struct in place through
// the generated accessors, as a reader of "capnp/lazy" would: every scalar,
// every Text (as a byte slice of the input, never copied) and every element
// of every list. They fold what they read into a checksum so that the
// compiler cannot drop a read and the work is not skipped; the checksum
// itself means nothing. They return the first error an accessor gave (a
// pointer out of bounds, a traverse limit reached).

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func (e *errs) n(b []byte, err error) uint64 {
	e.set(err)
	return uint64(len(b))
}

func (e *errs) stringMap(l capnpb.StringEntry_List, err error) uint64 {
	e.set(err)
	var sum uint64
	for i := range l.Len() {
		en := l.At(i)
		sum += e.n(en.KeyBytes()) + e.n(en.ValueBytes())
	}
	return sum
}

func (e *errs) time(t capnpb.Time, err error) uint64 {
	e.set(err)
	return uint64(t.UnixSeconds()) ^ uint64(t.Nanos()) ^ uint64(t.OffsetSeconds())
}

func touchSSE(r capnpb.SSEEvent) (uint64, error) {
	var e errs
	sum := e.n(r.IdBytes()) + e.n(r.EventBytes()) + e.n(r.DataBytes()) + b2u(r.Replay())
	sum += e.stringMap(r.Meta())
	return sum, e.err
}

func touchWS(r capnpb.WSMessage) (uint64, error) {
	var e errs
	sum := e.n(r.UidBytes()) + e.n(r.ContentBytes()) + uint64(r.Timestamp())
	return sum, e.err
}

func touchUserEvent(r capnpb.UserEvent) (uint64, error) {
	var e errs
	sum := r.EventId() + r.UserId() + e.n(r.SessionIdBytes()) + e.n(r.TypeBytes())
	sum += e.time(r.OccurredAt())
	src, err := r.Source()
	e.set(err)
	sum += e.n(src.AppBytes()) + e.n(src.VersionBytes()) + e.n(src.OsBytes()) + e.n(src.IpBytes()) + e.n(src.LocaleBytes())
	tags, err := r.Tags()
	e.set(err)
	for i := range tags.Len() {
		sum += e.n(tags.BytesAt(i))
	}
	items, err := r.Items()
	e.set(err)
	for i := range items.Len() {
		it := items.At(i)
		sum += e.n(it.SkuBytes()) + e.n(it.NameBytes()) + e.n(it.CurrencyBytes()) + uint64(it.Quantity()) + math.Float64bits(it.Price())
	}
	attrs, err := r.Attributes()
	e.set(err)
	for i := range attrs.Len() {
		a := attrs.At(i)
		sum += e.n(a.KeyBytes()) + e.stringMap(a.Value())
	}
	scores, err := r.Scores()
	e.set(err)
	for i := range scores.Len() {
		sum += math.Float64bits(scores.At(i))
	}
	flags, err := r.Flags()
	e.set(err)
	for i := range flags.Len() {
		sum += b2u(flags.At(i))
	}
	return sum, e.err
}

func touchAnnotation(r capnpb.Annotation) (uint64, error) {
	var e errs
	sum := e.n(r.IdBytes()) + e.n(r.AnnotatorBytes()) + uint64(r.Timestamp())
	labels, err := r.Labels()
	e.set(err)
	for i := range labels.Len() {
		l := labels.At(i)
		sum += e.n(l.NameBytes()) + uint64(math.Float32bits(l.Confidence()))
		box, err := l.Box()
		e.set(err)
		sum += uint64(math.Float32bits(box.X()) ^ math.Float32bits(box.Y()) ^ math.Float32bits(box.W()) ^ math.Float32bits(box.H()))
	}
	return sum, e.err
}

func touchProfile(r capnpb.UserProfile) (uint64, error) {
	var e errs
	sum := uint64(r.Id()) + e.n(r.NameBytes()) + e.n(r.EmailBytes()) + b2u(r.IsActive())
	addrs, err := r.Addresses()
	e.set(err)
	for i := range addrs.Len() {
		a := addrs.At(i)
		sum += e.n(a.StreetBytes()) + e.n(a.CityBytes()) + e.n(a.StateBytes()) + e.n(a.ZipCodeBytes()) + b2u(a.IsBilling())
	}
	sum += e.time(r.CreatedAt())
	sum += e.stringMap(r.Metadata())
	return sum, e.err
}
