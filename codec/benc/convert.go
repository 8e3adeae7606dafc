package benc

import (
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/benc/bencgen"
	"github.com/serbench/serbench/scenario"
)

// convs are the conversions between the seed scenario types and the
// structs bencgen generated in package bencgen, one per type, for
// codec.Converting.Convs.
//
// They copy field by field. Slices and maps of scalars and strings are
// shared with the source value, not copied; slices of structs are copied
// element by element. What the round trip keeps and loses:
//   - time.Time keeps its instant to the nanosecond (Unix seconds and
//     nanoseconds, any year) and its offset from UTC, not its zone name: it
//     comes back in a time.FixedZone with an empty name (or time.UTC for
//     offset 0).
//   - Benc has no null slice or map: a nil one is written with length 0,
//     like an empty one.
var convs = []codec.Conv{
	codec.NewConv(sseToBenc, sseFromBenc),
	codec.NewConv(userEventToBenc, userEventFromBenc),
	codec.NewConv(wsToBenc, wsFromBenc),
	codec.NewConv(annotationToBenc, annotationFromBenc),
	codec.NewConv(profileToBenc, profileFromBenc),
}

func timeToBenc(t time.Time) bencgen.Time {
	sec, nanos, off := codec.TimeParts(t)
	return bencgen.Time{UnixSeconds: sec, Nanos: nanos, OffsetSeconds: off}
}

func timeFromBenc(t bencgen.Time) time.Time {
	return codec.TimeFromParts(t.UnixSeconds, int64(t.Nanos), t.OffsetSeconds)
}

func sseToBenc(v *scenario.SSEEvent) *bencgen.SSEEvent {
	return &bencgen.SSEEvent{Id: v.ID, Event: v.Event, Data: v.Data, Replay: v.Replay, Meta: v.Meta}
}

func sseFromBenc(m *bencgen.SSEEvent) *scenario.SSEEvent {
	return &scenario.SSEEvent{ID: m.Id, Event: m.Event, Data: m.Data, Replay: m.Replay, Meta: m.Meta}
}

func userEventToBenc(v *scenario.UserEvent) *bencgen.UserEvent {
	return &bencgen.UserEvent{
		EventId:    v.EventID,
		UserId:     v.UserID,
		SessionId:  v.SessionID,
		Type:       v.Type,
		OccurredAt: timeToBenc(v.OccurredAt),
		Source: bencgen.EventSource{App: v.Source.App, Version: v.Source.Version, Os: v.Source.OS,
			Ip: v.Source.IP, Locale: v.Source.Locale},
		Tags: v.Tags,
		Items: codec.Slice(v.Items, func(it scenario.EventItem) bencgen.EventItem {
			return bencgen.EventItem{Sku: it.SKU, Name: it.Name, Quantity: it.Quantity, Price: it.Price, Currency: it.Currency}
		}),
		Attributes: v.Attributes,
		Scores:     v.Scores,
		Flags:      v.Flags,
	}
}

func userEventFromBenc(m *bencgen.UserEvent) *scenario.UserEvent {
	return &scenario.UserEvent{
		EventID:    m.EventId,
		UserID:     m.UserId,
		SessionID:  m.SessionId,
		Type:       m.Type,
		OccurredAt: timeFromBenc(m.OccurredAt),
		Source: scenario.EventSource{App: m.Source.App, Version: m.Source.Version, OS: m.Source.Os,
			IP: m.Source.Ip, Locale: m.Source.Locale},
		Tags: m.Tags,
		Items: codec.Slice(m.Items, func(it bencgen.EventItem) scenario.EventItem {
			return scenario.EventItem{SKU: it.Sku, Name: it.Name, Quantity: it.Quantity, Price: it.Price, Currency: it.Currency}
		}),
		Attributes: m.Attributes,
		Scores:     m.Scores,
		Flags:      m.Flags,
	}
}

func wsToBenc(v *scenario.WSMessage) *bencgen.WSMessage {
	return &bencgen.WSMessage{Uid: v.Uid, Content: v.Content, Timestamp: v.Timestamp}
}

func wsFromBenc(m *bencgen.WSMessage) *scenario.WSMessage {
	return &scenario.WSMessage{Uid: m.Uid, Content: m.Content, Timestamp: m.Timestamp}
}

func annotationToBenc(v *scenario.Annotation) *bencgen.Annotation {
	return &bencgen.Annotation{
		Id: v.ID,
		Labels: codec.Slice(v.Labels, func(l scenario.Label) bencgen.Label {
			return bencgen.Label{Name: l.Name, Confidence: l.Confidence, Box: bencgen.BBox(l.Box)}
		}),
		Annotator: v.Annotator,
		Timestamp: v.Timestamp,
	}
}

func annotationFromBenc(m *bencgen.Annotation) *scenario.Annotation {
	return &scenario.Annotation{
		ID: m.Id,
		Labels: codec.Slice(m.Labels, func(l bencgen.Label) scenario.Label {
			return scenario.Label{Name: l.Name, Confidence: l.Confidence, Box: scenario.BBox(l.Box)}
		}),
		Annotator: m.Annotator,
		Timestamp: m.Timestamp,
	}
}

func profileToBenc(v *scenario.UserProfile) *bencgen.UserProfile {
	return &bencgen.UserProfile{
		Id:        int64(v.ID),
		Name:      v.Name,
		Email:     v.Email,
		Addresses: codec.Slice(v.Addresses, func(a scenario.Address) bencgen.Address { return bencgen.Address(a) }),
		IsActive:  v.IsActive,
		CreatedAt: timeToBenc(v.CreatedAt),
		Metadata:  v.Metadata,
	}
}

func profileFromBenc(m *bencgen.UserProfile) *scenario.UserProfile {
	return &scenario.UserProfile{
		ID:        int(m.Id),
		Name:      m.Name,
		Email:     m.Email,
		Addresses: codec.Slice(m.Addresses, func(a bencgen.Address) scenario.Address { return scenario.Address(a) }),
		IsActive:  m.IsActive,
		CreatedAt: timeFromBenc(m.CreatedAt),
		Metadata:  m.Metadata,
	}
}
