package wire

import (
	"math/bits"
	"time"

	"github.com/serbench/serbench/scenario"
)

// Sizes of encodings, so that Marshal can allocate its output exactly once.

// SizeUvarint returns the length of the uvarint encoding of x: 1 to 10.
func SizeUvarint(x uint64) int { return (bits.Len64(x|1) + 6) / 7 }

// SizeVarint returns the length of the zig-zag varint encoding of x.
func SizeVarint(x int64) int { return SizeUvarint(uint64(x<<1) ^ uint64(x>>63)) }

// SizeString returns the length of the encoding of s.
func SizeString(s string) int { return SizeUvarint(uint64(len(s))) + len(s) }

// SizeHeader returns the length of a slice or map header.
func SizeHeader(n int, isNil bool) int {
	if isNil {
		return 1
	}
	return SizeUvarint(uint64(n) + 1)
}

// SizeTime returns the length of the encoding of t.
func SizeTime(t time.Time) int {
	_, off := t.Zone()
	return SizeVarint(t.Unix()) + SizeUvarint(uint64(t.Nanosecond())) + SizeVarint(int64(off))
}

// SizeStringMap returns the length of the encoding of m.
func SizeStringMap(m map[string]string) int {
	n := SizeHeader(len(m), m == nil)
	for k, v := range m {
		n += SizeString(k) + SizeString(v)
	}
	return n
}

// SizeStringMapMap returns the length of the encoding of m.
func SizeStringMapMap(m map[string]map[string]string) int {
	n := SizeHeader(len(m), m == nil)
	for k, v := range m {
		n += SizeString(k) + SizeStringMap(v)
	}
	return n
}

// SizeSSEEvent returns the length of the message encoding of v.
func SizeSSEEvent(v *scenario.SSEEvent) int {
	return 1 + SizeString(v.ID) + SizeString(v.Event) + SizeString(v.Data) + 1 + SizeStringMap(v.Meta)
}

// SizeUserEvent returns the length of the message encoding of v.
func SizeUserEvent(v *scenario.UserEvent) int {
	n := 1 + SizeUvarint(v.EventID) + SizeUvarint(v.UserID) + SizeString(v.SessionID) + SizeString(v.Type) +
		SizeTime(v.OccurredAt) +
		SizeString(v.Source.App) + SizeString(v.Source.Version) + SizeString(v.Source.OS) +
		SizeString(v.Source.IP) + SizeString(v.Source.Locale)
	n += SizeHeader(len(v.Tags), v.Tags == nil)
	for _, s := range v.Tags {
		n += SizeString(s)
	}
	n += SizeHeader(len(v.Items), v.Items == nil)
	for i := range v.Items {
		it := &v.Items[i]
		n += SizeString(it.SKU) + SizeString(it.Name) + SizeVarint(int64(it.Quantity)) + 8 + SizeString(it.Currency)
	}
	n += SizeStringMapMap(v.Attributes)
	n += SizeHeader(len(v.Scores), v.Scores == nil) + 8*len(v.Scores)
	n += SizeHeader(len(v.Flags), v.Flags == nil) + len(v.Flags)
	return n
}

// SizeWSMessage returns the length of the message encoding of v.
func SizeWSMessage(v *scenario.WSMessage) int {
	return 1 + SizeString(v.Uid) + SizeString(v.Content) + SizeVarint(v.Timestamp)
}

// SizeAnnotation returns the length of the message encoding of v.
func SizeAnnotation(v *scenario.Annotation) int {
	n := 1 + SizeString(v.ID) + SizeHeader(len(v.Labels), v.Labels == nil)
	for i := range v.Labels {
		n += SizeString(v.Labels[i].Name) + 20
	}
	return n + SizeString(v.Annotator) + SizeVarint(v.Timestamp)
}

// SizeUserProfile returns the length of the message encoding of v.
func SizeUserProfile(v *scenario.UserProfile) int {
	n := 1 + SizeVarint(int64(v.ID)) + SizeString(v.Name) + SizeString(v.Email) +
		SizeHeader(len(v.Addresses), v.Addresses == nil)
	for i := range v.Addresses {
		a := &v.Addresses[i]
		n += SizeString(a.Street) + SizeString(a.City) + SizeString(a.State) + SizeString(a.ZipCode) + 1
	}
	return n + 1 + SizeTime(v.CreatedAt) + SizeStringMap(v.Metadata)
}
