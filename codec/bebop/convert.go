package bebop

import (
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/bebop/bebopgen"
	"github.com/serbench/serbench/scenario"
)

// convs are the conversions between the seed scenario types and the
// structs bebopc-go generated in package bebopgen, one per type, for
// codec.Converting.Convs.
//
// They copy field by field. Slices and maps of scalars and strings are
// shared with the source value, not copied; slices of structs are copied
// element by element. What the round trip keeps and loses:
//   - time.Time keeps its instant to the nanosecond (Unix seconds and
//     nanoseconds, any year) and its offset from UTC, not its zone name: it
//     comes back in a time.FixedZone with an empty name (or time.UTC for
//     offset 0).
//   - Bebop has no null array or map: a nil one is written as empty and
//     decodes as an empty, non-nil one.
var convs = []codec.Conv{
	codec.NewConv(sseToBebop, sseFromBebop),
	codec.NewConv(userEventToBebop, userEventFromBebop),
	codec.NewConv(wsToBebop, wsFromBebop),
	codec.NewConv(annotationToBebop, annotationFromBebop),
	codec.NewConv(profileToBebop, profileFromBebop),
}

func timeToBebop(t time.Time) bebopgen.Time {
	sec, nanos, off := codec.TimeParts(t)
	return bebopgen.Time{UnixSeconds: sec, Nanos: nanos, OffsetSeconds: off}
}

func timeFromBebop(t bebopgen.Time) time.Time {
	return codec.TimeFromParts(t.UnixSeconds, int64(t.Nanos), t.OffsetSeconds)
}

func sseToBebop(v *scenario.SSEEvent) *bebopgen.SSEEvent {
	return &bebopgen.SSEEvent{Id: v.ID, Event: v.Event, Data: v.Data, Replay: v.Replay, Meta: v.Meta}
}

func sseFromBebop(m *bebopgen.SSEEvent) *scenario.SSEEvent {
	return &scenario.SSEEvent{ID: m.Id, Event: m.Event, Data: m.Data, Replay: m.Replay, Meta: m.Meta}
}

func userEventToBebop(v *scenario.UserEvent) *bebopgen.UserEvent {
	return &bebopgen.UserEvent{
		EventId:    v.EventID,
		UserId:     v.UserID,
		SessionId:  v.SessionID,
		Type:       v.Type,
		OccurredAt: timeToBebop(v.OccurredAt),
		Source: bebopgen.EventSource{App: v.Source.App, Version: v.Source.Version, Os: v.Source.OS,
			Ip: v.Source.IP, Locale: v.Source.Locale},
		Tags: v.Tags,
		Items: codec.Slice(v.Items, func(it scenario.EventItem) bebopgen.EventItem {
			return bebopgen.EventItem{Sku: it.SKU, Name: it.Name, Quantity: it.Quantity, Price: it.Price, Currency: it.Currency}
		}),
		Attributes: v.Attributes,
		Scores:     v.Scores,
		FlagList:   v.Flags,
	}
}

func userEventFromBebop(m *bebopgen.UserEvent) *scenario.UserEvent {
	return &scenario.UserEvent{
		EventID:    m.EventId,
		UserID:     m.UserId,
		SessionID:  m.SessionId,
		Type:       m.Type,
		OccurredAt: timeFromBebop(m.OccurredAt),
		Source: scenario.EventSource{App: m.Source.App, Version: m.Source.Version, OS: m.Source.Os,
			IP: m.Source.Ip, Locale: m.Source.Locale},
		Tags: m.Tags,
		Items: codec.Slice(m.Items, func(it bebopgen.EventItem) scenario.EventItem {
			return scenario.EventItem{SKU: it.Sku, Name: it.Name, Quantity: it.Quantity, Price: it.Price, Currency: it.Currency}
		}),
		Attributes: m.Attributes,
		Scores:     m.Scores,
		Flags:      m.FlagList,
	}
}

func wsToBebop(v *scenario.WSMessage) *bebopgen.WSMessage {
	return &bebopgen.WSMessage{Uid: v.Uid, Content: v.Content, Timestamp: v.Timestamp}
}

func wsFromBebop(m *bebopgen.WSMessage) *scenario.WSMessage {
	return &scenario.WSMessage{Uid: m.Uid, Content: m.Content, Timestamp: m.Timestamp}
}

func annotationToBebop(v *scenario.Annotation) *bebopgen.Annotation {
	return &bebopgen.Annotation{
		Id: v.ID,
		Labels: codec.Slice(v.Labels, func(l scenario.Label) bebopgen.Label {
			return bebopgen.Label{Name: l.Name, Confidence: l.Confidence, Box: bebopgen.BBox(l.Box)}
		}),
		Annotator: v.Annotator,
		Timestamp: v.Timestamp,
	}
}

func annotationFromBebop(m *bebopgen.Annotation) *scenario.Annotation {
	return &scenario.Annotation{
		ID: m.Id,
		Labels: codec.Slice(m.Labels, func(l bebopgen.Label) scenario.Label {
			return scenario.Label{Name: l.Name, Confidence: l.Confidence, Box: scenario.BBox(l.Box)}
		}),
		Annotator: m.Annotator,
		Timestamp: m.Timestamp,
	}
}

func profileToBebop(v *scenario.UserProfile) *bebopgen.UserProfile {
	return &bebopgen.UserProfile{
		Id:        int64(v.ID),
		Name:      v.Name,
		Email:     v.Email,
		Addresses: codec.Slice(v.Addresses, func(a scenario.Address) bebopgen.Address { return bebopgen.Address(a) }),
		IsActive:  v.IsActive,
		CreatedAt: timeToBebop(v.CreatedAt),
		Metadata:  v.Metadata,
	}
}

func profileFromBebop(m *bebopgen.UserProfile) *scenario.UserProfile {
	return &scenario.UserProfile{
		ID:        int(m.Id),
		Name:      m.Name,
		Email:     m.Email,
		Addresses: codec.Slice(m.Addresses, func(a bebopgen.Address) scenario.Address { return scenario.Address(a) }),
		IsActive:  m.IsActive,
		CreatedAt: timeFromBebop(m.CreatedAt),
		Metadata:  m.Metadata,
	}
}
