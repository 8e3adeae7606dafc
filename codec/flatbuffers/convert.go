package flatbuffers

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/flatbuffers/fb"
	"github.com/serbench/serbench/scenario"
)

// The conversions below map each seed type of package scenario to the object
// API type flatc generated for it (*fb.UserProfileT, ...) and back. Every
// value is copied: the object API types hold pointers to tables
// ([]*fb.AddressT) rather than the scenario's values.
//
// What the round trip keeps and loses:
//   - time.Time keeps its instant to the nanosecond and its offset from UTC,
//     not its zone name: it comes back in a time.FixedZone with an empty name
//     (or time.UTC for offset 0). Times outside the int64 Unix-nanosecond
//     range (years 1678 to 2262) are an error.
//   - Maps become vectors of key/value tables sorted by key.
//   - The generated UnPack turns an absent vector into an empty, non-nil
//     slice, so a nil slice or map in the original comes back empty (fidelity
//     reports that as a difference); none of the seed payloads has one.

// minTime and maxTime bound the times that int64 Unix nanoseconds can hold.
var (
	minTime = time.Unix(0, -1<<63)
	maxTime = time.Unix(0, 1<<63-1)
)

func timeToFB(t time.Time) (*fb.TimeT, error) {
	if t.Before(minTime) || t.After(maxTime) {
		return nil, fmt.Errorf("flatbuffers: time %s outside the int64 Unix-nanosecond range [%s, %s]",
			t.Format(time.RFC3339Nano), minTime.UTC().Format(time.RFC3339Nano), maxTime.UTC().Format(time.RFC3339Nano))
	}
	_, off := t.Zone()
	return &fb.TimeT{UnixNanos: t.UnixNano(), OffsetSeconds: int32(off)}, nil
}

func timeFromFB(t *fb.TimeT) time.Time {
	if t == nil {
		return time.Time{}
	}
	return codec.TimeFromParts(0, t.UnixNanos, t.OffsetSeconds)
}

func stringMapToFB(m map[string]string) []*fb.StringEntryT {
	if m == nil {
		return nil
	}
	out := make([]*fb.StringEntryT, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, &fb.StringEntryT{Key: k, Value: m[k]})
	}
	return out
}

func stringMapFromFB(es []*fb.StringEntryT) map[string]string {
	if es == nil {
		return nil
	}
	m := make(map[string]string, len(es))
	for _, e := range es {
		if e != nil {
			m[e.Key] = e.Value
		}
	}
	return m
}

func sseToFB(s *scenario.SSEEvent) (*fb.SSEEventT, error) {
	return &fb.SSEEventT{Id: s.ID, Event: s.Event, Data: s.Data, Replay: s.Replay, Meta: stringMapToFB(s.Meta)}, nil
}

func sseFromFB(t *fb.SSEEventT) *scenario.SSEEvent {
	return &scenario.SSEEvent{ID: t.Id, Event: t.Event, Data: t.Data, Replay: t.Replay, Meta: stringMapFromFB(t.Meta)}
}

func wsToFB(s *scenario.WSMessage) (*fb.WSMessageT, error) {
	return &fb.WSMessageT{Uid: s.Uid, Content: s.Content, Timestamp: s.Timestamp}, nil
}

func wsFromFB(t *fb.WSMessageT) *scenario.WSMessage {
	return &scenario.WSMessage{Uid: t.Uid, Content: t.Content, Timestamp: t.Timestamp}
}

func userEventToFB(s *scenario.UserEvent) (*fb.UserEventT, error) {
	at, err := timeToFB(s.OccurredAt)
	if err != nil {
		return nil, err
	}
	src := fb.EventSourceT{App: s.Source.App, Version: s.Source.Version, Os: s.Source.OS, Ip: s.Source.IP, Locale: s.Source.Locale}
	t := &fb.UserEventT{
		EventId: s.EventID, UserId: s.UserID, SessionId: s.SessionID, Type: s.Type,
		OccurredAt: at, Source: &src, Tags: slices.Clone(s.Tags),
		Scores: slices.Clone(s.Scores), Flags: slices.Clone(s.Flags),
	}
	if s.Items != nil {
		t.Items = make([]*fb.EventItemT, len(s.Items))
		for i, it := range s.Items {
			t.Items[i] = &fb.EventItemT{Sku: it.SKU, Name: it.Name, Quantity: it.Quantity, Price: it.Price, Currency: it.Currency}
		}
	}
	if s.Attributes != nil {
		t.Attributes = make([]*fb.StringMapEntryT, 0, len(s.Attributes))
		for _, k := range slices.Sorted(maps.Keys(s.Attributes)) {
			t.Attributes = append(t.Attributes, &fb.StringMapEntryT{Key: k, Value: stringMapToFB(s.Attributes[k])})
		}
	}
	return t, nil
}

func userEventFromFB(t *fb.UserEventT) *scenario.UserEvent {
	s := &scenario.UserEvent{
		EventID: t.EventId, UserID: t.UserId, SessionID: t.SessionId, Type: t.Type,
		OccurredAt: timeFromFB(t.OccurredAt), Tags: t.Tags, Scores: t.Scores, Flags: t.Flags,
	}
	if src := t.Source; src != nil {
		s.Source = scenario.EventSource{App: src.App, Version: src.Version, OS: src.Os, IP: src.Ip, Locale: src.Locale}
	}
	if t.Items != nil {
		s.Items = make([]scenario.EventItem, 0, len(t.Items))
		for _, it := range t.Items {
			if it != nil {
				s.Items = append(s.Items, scenario.EventItem{SKU: it.Sku, Name: it.Name, Quantity: it.Quantity, Price: it.Price, Currency: it.Currency})
			}
		}
	}
	if t.Attributes != nil {
		s.Attributes = make(map[string]map[string]string, len(t.Attributes))
		for _, e := range t.Attributes {
			if e != nil {
				s.Attributes[e.Key] = stringMapFromFB(e.Value)
			}
		}
	}
	return s
}

func annotationToFB(s *scenario.Annotation) (*fb.AnnotationT, error) {
	t := &fb.AnnotationT{Id: s.ID, Annotator: s.Annotator, Timestamp: s.Timestamp}
	if s.Labels != nil {
		t.Labels = make([]*fb.LabelT, len(s.Labels))
		for i, l := range s.Labels {
			t.Labels[i] = &fb.LabelT{Name: l.Name, Confidence: l.Confidence,
				Box: &fb.BBoxT{X: l.Box.X, Y: l.Box.Y, W: l.Box.W, H: l.Box.H}}
		}
	}
	return t, nil
}

func annotationFromFB(t *fb.AnnotationT) *scenario.Annotation {
	s := &scenario.Annotation{ID: t.Id, Annotator: t.Annotator, Timestamp: t.Timestamp}
	if t.Labels != nil {
		s.Labels = make([]scenario.Label, 0, len(t.Labels))
		for _, l := range t.Labels {
			if l == nil {
				continue
			}
			sl := scenario.Label{Name: l.Name, Confidence: l.Confidence}
			if b := l.Box; b != nil {
				sl.Box = scenario.BBox{X: b.X, Y: b.Y, W: b.W, H: b.H}
			}
			s.Labels = append(s.Labels, sl)
		}
	}
	return s
}

func profileToFB(s *scenario.UserProfile) (*fb.UserProfileT, error) {
	at, err := timeToFB(s.CreatedAt)
	if err != nil {
		return nil, err
	}
	t := &fb.UserProfileT{Id: int64(s.ID), Name: s.Name, Email: s.Email, IsActive: s.IsActive,
		CreatedAt: at, Metadata: stringMapToFB(s.Metadata)}
	if s.Addresses != nil {
		t.Addresses = make([]*fb.AddressT, len(s.Addresses))
		for i, a := range s.Addresses {
			t.Addresses[i] = &fb.AddressT{Street: a.Street, City: a.City, State: a.State, ZipCode: a.ZipCode, IsBilling: a.IsBilling}
		}
	}
	return t, nil
}

func profileFromFB(t *fb.UserProfileT) *scenario.UserProfile {
	s := &scenario.UserProfile{ID: int(t.Id), Name: t.Name, Email: t.Email, IsActive: t.IsActive,
		CreatedAt: timeFromFB(t.CreatedAt), Metadata: stringMapFromFB(t.Metadata)}
	if t.Addresses != nil {
		s.Addresses = make([]scenario.Address, 0, len(t.Addresses))
		for _, a := range t.Addresses {
			if a != nil {
				s.Addresses = append(s.Addresses, scenario.Address{Street: a.Street, City: a.City, State: a.State, ZipCode: a.ZipCode, IsBilling: a.IsBilling})
			}
		}
	}
	return s
}
