package thrift

import (
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/thrift/thriftgen"
	"github.com/serbench/serbench/scenario"
)

// convs are the conversions between the seed scenario types and the structs
// that the Thrift compiler generated in package thriftgen, one per type, for
// codec.Converting.Convs.
//
// They copy field by field. Slices and maps of scalars and strings are
// shared with the source value, not copied; nested structs are built anew.
// What the round trip keeps and loses:
//   - uint64 travels as i64 with the same bits and float32 as double, both
//     exactly.
//   - time.Time keeps its instant to the nanosecond (Unix seconds and
//     nanoseconds, any year) and its offset from UTC, not its zone name: it
//     comes back in a time.FixedZone with an empty name (or time.UTC for
//     offset 0).
//   - Lists and maps are optional fields: a nil one is left out and decodes
//     as nil, an empty one decodes as empty. Nothing else is lost.
var convs = []codec.Conv{
	codec.NewConv(sseToThrift, sseFromThrift),
	codec.NewConv(userEventToThrift, userEventFromThrift),
	codec.NewConv(wsToThrift, wsFromThrift),
	codec.NewConv(annotationToThrift, annotationFromThrift),
	codec.NewConv(profileToThrift, profileFromThrift),
}

func timeToThrift(t time.Time) *thriftgen.Time {
	sec, nanos, off := codec.TimeParts(t)
	return &thriftgen.Time{UnixSeconds: sec, Nanos: nanos, OffsetSeconds: off}
}

// timeFromThrift returns the time t holds, the zero time for nil.
func timeFromThrift(t *thriftgen.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return codec.TimeFromParts(t.UnixSeconds, int64(t.Nanos), t.OffsetSeconds)
}

func sseToThrift(v *scenario.SSEEvent) *thriftgen.SSEEvent {
	return &thriftgen.SSEEvent{ID: v.ID, Event: v.Event, Data: v.Data, Replay: v.Replay, Meta: v.Meta}
}

func sseFromThrift(m *thriftgen.SSEEvent) *scenario.SSEEvent {
	return &scenario.SSEEvent{ID: m.ID, Event: m.Event, Data: m.Data, Replay: m.Replay, Meta: m.Meta}
}

func userEventToThrift(v *scenario.UserEvent) *thriftgen.UserEvent {
	return &thriftgen.UserEvent{
		EventID:    int64(v.EventID),
		UserID:     int64(v.UserID),
		SessionID:  v.SessionID,
		Type:       v.Type,
		OccurredAt: timeToThrift(v.OccurredAt),
		Source: &thriftgen.EventSource{App: v.Source.App, Version: v.Source.Version, Os: v.Source.OS,
			IP: v.Source.IP, Locale: v.Source.Locale},
		Tags: v.Tags,
		Items: codec.Slice(v.Items, func(it scenario.EventItem) *thriftgen.EventItem {
			return &thriftgen.EventItem{Sku: it.SKU, Name: it.Name, Quantity: it.Quantity, Price: it.Price, Currency: it.Currency}
		}),
		Attributes: v.Attributes,
		Scores:     v.Scores,
		Flags:      v.Flags,
	}
}

func userEventFromThrift(m *thriftgen.UserEvent) *scenario.UserEvent {
	v := &scenario.UserEvent{
		EventID:    uint64(m.EventID),
		UserID:     uint64(m.UserID),
		SessionID:  m.SessionID,
		Type:       m.Type,
		OccurredAt: timeFromThrift(m.OccurredAt),
		Tags:       m.Tags,
		Items: codec.Slice(m.Items, func(it *thriftgen.EventItem) scenario.EventItem {
			return scenario.EventItem{SKU: it.GetSku(), Name: it.GetName(), Quantity: it.GetQuantity(),
				Price: it.GetPrice(), Currency: it.GetCurrency()}
		}),
		Attributes: m.Attributes,
		Scores:     m.Scores,
		Flags:      m.Flags,
	}
	if s := m.Source; s != nil {
		v.Source = scenario.EventSource{App: s.App, Version: s.Version, OS: s.Os, IP: s.IP, Locale: s.Locale}
	}
	return v
}

func wsToThrift(v *scenario.WSMessage) *thriftgen.WSMessage {
	return &thriftgen.WSMessage{UID: v.Uid, Content: v.Content, Timestamp: v.Timestamp}
}

func wsFromThrift(m *thriftgen.WSMessage) *scenario.WSMessage {
	return &scenario.WSMessage{Uid: m.UID, Content: m.Content, Timestamp: m.Timestamp}
}

func annotationToThrift(v *scenario.Annotation) *thriftgen.Annotation {
	return &thriftgen.Annotation{
		ID: v.ID,
		Labels: codec.Slice(v.Labels, func(l scenario.Label) *thriftgen.Label {
			return &thriftgen.Label{Name: l.Name, Confidence: float64(l.Confidence),
				Box: &thriftgen.BBox{X: float64(l.Box.X), Y: float64(l.Box.Y), W: float64(l.Box.W), H: float64(l.Box.H)}}
		}),
		Annotator: v.Annotator,
		Timestamp: v.Timestamp,
	}
}

func annotationFromThrift(m *thriftgen.Annotation) *scenario.Annotation {
	return &scenario.Annotation{
		ID: m.ID,
		Labels: codec.Slice(m.Labels, func(l *thriftgen.Label) scenario.Label {
			out := scenario.Label{Name: l.GetName(), Confidence: float32(l.GetConfidence())}
			if b := l.GetBox(); b != nil {
				out.Box = scenario.BBox{X: float32(b.X), Y: float32(b.Y), W: float32(b.W), H: float32(b.H)}
			}
			return out
		}),
		Annotator: m.Annotator,
		Timestamp: m.Timestamp,
	}
}

func profileToThrift(v *scenario.UserProfile) *thriftgen.UserProfile {
	return &thriftgen.UserProfile{
		ID:    int64(v.ID),
		Name:  v.Name,
		Email: v.Email,
		Addresses: codec.Slice(v.Addresses, func(a scenario.Address) *thriftgen.Address {
			return &thriftgen.Address{Street: a.Street, City: a.City, State: a.State, ZipCode: a.ZipCode, IsBilling: a.IsBilling}
		}),
		IsActive:  v.IsActive,
		CreatedAt: timeToThrift(v.CreatedAt),
		Metadata:  v.Metadata,
	}
}

func profileFromThrift(m *thriftgen.UserProfile) *scenario.UserProfile {
	return &scenario.UserProfile{
		ID:    int(m.ID),
		Name:  m.Name,
		Email: m.Email,
		Addresses: codec.Slice(m.Addresses, func(a *thriftgen.Address) scenario.Address {
			return scenario.Address{Street: a.GetStreet(), City: a.GetCity(), State: a.GetState(), ZipCode: a.GetZipCode(),
				IsBilling: a.GetIsBilling()}
		}),
		IsActive:  m.IsActive,
		CreatedAt: timeFromThrift(m.CreatedAt),
		Metadata:  m.Metadata,
	}
}
