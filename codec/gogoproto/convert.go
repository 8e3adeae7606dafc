package gogoproto

import (
	"time"

	"github.com/gogo/protobuf/types"

	"github.com/serbench/serbench/codec/gogoproto/gogopb"
	"github.com/serbench/serbench/codec/protobuf/pbconv"
	"github.com/serbench/serbench/scenario"
)

// convFor returns the conversion between sample's type and its message in
// package gogopb, and false when the schema has no message for that type.
// It mirrors pbconv.For field for field: the generated types differ only in
// their package and their Timestamp type.
func convFor(sample any) (pbconv.Conv, bool) {
	switch sample.(type) {
	case *scenario.SSEEvent:
		return pbconv.NewConv(sseToGogo, sseFromGogo), true
	case *scenario.UserEvent:
		return pbconv.NewConv(userEventToGogo, userEventFromGogo), true
	case *scenario.WSMessage:
		return pbconv.NewConv(wsToGogo, wsFromGogo), true
	case *scenario.Annotation:
		return pbconv.NewConv(annotationToGogo, annotationFromGogo), true
	case *scenario.UserProfile:
		return pbconv.NewConv(profileToGogo, profileFromGogo), true
	}
	return pbconv.Conv{}, false
}

// timeToGogo keeps t's instant; its zone is lost.
func timeToGogo(t time.Time) *types.Timestamp {
	return &types.Timestamp{Seconds: t.Unix(), Nanos: int32(t.Nanosecond())}
}

// timeFromGogo returns the instant of ts in UTC, or the zero time for nil.
func timeFromGogo(ts *types.Timestamp) time.Time {
	if ts == nil {
		return time.Time{}
	}
	return time.Unix(ts.Seconds, int64(ts.Nanos)).UTC()
}

func sseToGogo(v *scenario.SSEEvent) *gogopb.SSEEvent {
	return &gogopb.SSEEvent{Id: v.ID, Event: v.Event, Data: v.Data, Replay: v.Replay, Meta: v.Meta}
}

func sseFromGogo(m *gogopb.SSEEvent) *scenario.SSEEvent {
	return &scenario.SSEEvent{ID: m.Id, Event: m.Event, Data: m.Data, Replay: m.Replay, Meta: m.Meta}
}

func userEventToGogo(v *scenario.UserEvent) *gogopb.UserEvent {
	m := &gogopb.UserEvent{
		EventId:    v.EventID,
		UserId:     v.UserID,
		SessionId:  v.SessionID,
		Type:       v.Type,
		OccurredAt: timeToGogo(v.OccurredAt),
		Source: &gogopb.EventSource{App: v.Source.App, Version: v.Source.Version, Os: v.Source.OS,
			Ip: v.Source.IP, Locale: v.Source.Locale},
		Tags: v.Tags,
		Items: pbconv.Slice(v.Items, func(it scenario.EventItem) *gogopb.EventItem {
			return &gogopb.EventItem{Sku: it.SKU, Name: it.Name, Quantity: it.Quantity, Price: it.Price, Currency: it.Currency}
		}),
		Scores: v.Scores,
		Flags:  v.Flags,
	}
	if v.Attributes != nil {
		m.Attributes = make(map[string]*gogopb.StringMap, len(v.Attributes))
		for k, inner := range v.Attributes {
			m.Attributes[k] = &gogopb.StringMap{Entries: inner}
		}
	}
	return m
}

func userEventFromGogo(m *gogopb.UserEvent) *scenario.UserEvent {
	v := &scenario.UserEvent{
		EventID:    m.EventId,
		UserID:     m.UserId,
		SessionID:  m.SessionId,
		Type:       m.Type,
		OccurredAt: timeFromGogo(m.OccurredAt),
		Tags:       m.Tags,
		Items: pbconv.Slice(m.Items, func(it *gogopb.EventItem) scenario.EventItem {
			return scenario.EventItem{SKU: it.GetSku(), Name: it.GetName(), Quantity: it.GetQuantity(),
				Price: it.GetPrice(), Currency: it.GetCurrency()}
		}),
		Scores: m.Scores,
		Flags:  m.Flags,
	}
	if s := m.Source; s != nil {
		v.Source = scenario.EventSource{App: s.App, Version: s.Version, OS: s.Os, IP: s.Ip, Locale: s.Locale}
	}
	if m.Attributes != nil {
		v.Attributes = make(map[string]map[string]string, len(m.Attributes))
		for k, inner := range m.Attributes {
			v.Attributes[k] = inner.GetEntries()
		}
	}
	return v
}

func wsToGogo(v *scenario.WSMessage) *gogopb.WSMessage {
	return &gogopb.WSMessage{Uid: v.Uid, Content: v.Content, Timestamp: v.Timestamp}
}

func wsFromGogo(m *gogopb.WSMessage) *scenario.WSMessage {
	return &scenario.WSMessage{Uid: m.Uid, Content: m.Content, Timestamp: m.Timestamp}
}

func annotationToGogo(v *scenario.Annotation) *gogopb.Annotation {
	return &gogopb.Annotation{
		Id: v.ID,
		Labels: pbconv.Slice(v.Labels, func(l scenario.Label) *gogopb.Label {
			return &gogopb.Label{Name: l.Name, Confidence: l.Confidence,
				Box: &gogopb.BBox{X: l.Box.X, Y: l.Box.Y, W: l.Box.W, H: l.Box.H}}
		}),
		Annotator: v.Annotator,
		Timestamp: v.Timestamp,
	}
}

func annotationFromGogo(m *gogopb.Annotation) *scenario.Annotation {
	return &scenario.Annotation{
		ID: m.Id,
		Labels: pbconv.Slice(m.Labels, func(l *gogopb.Label) scenario.Label {
			b := l.GetBox()
			return scenario.Label{Name: l.GetName(), Confidence: l.GetConfidence(),
				Box: scenario.BBox{X: b.GetX(), Y: b.GetY(), W: b.GetW(), H: b.GetH()}}
		}),
		Annotator: m.Annotator,
		Timestamp: m.Timestamp,
	}
}

func profileToGogo(v *scenario.UserProfile) *gogopb.UserProfile {
	return &gogopb.UserProfile{
		Id:    int64(v.ID),
		Name:  v.Name,
		Email: v.Email,
		Addresses: pbconv.Slice(v.Addresses, func(a scenario.Address) *gogopb.Address {
			return &gogopb.Address{Street: a.Street, City: a.City, State: a.State, ZipCode: a.ZipCode, IsBilling: a.IsBilling}
		}),
		IsActive:  v.IsActive,
		CreatedAt: timeToGogo(v.CreatedAt),
		Metadata:  v.Metadata,
	}
}

func profileFromGogo(m *gogopb.UserProfile) *scenario.UserProfile {
	return &scenario.UserProfile{
		ID:    int(m.Id),
		Name:  m.Name,
		Email: m.Email,
		Addresses: pbconv.Slice(m.Addresses, func(a *gogopb.Address) scenario.Address {
			return scenario.Address{Street: a.GetStreet(), City: a.GetCity(), State: a.GetState(),
				ZipCode: a.GetZipCode(), IsBilling: a.GetIsBilling()}
		}),
		IsActive:  m.IsActive,
		CreatedAt: timeFromGogo(m.CreatedAt),
		Metadata:  m.Metadata,
	}
}
