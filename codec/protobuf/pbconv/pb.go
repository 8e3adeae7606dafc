package pbconv

import (
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/serbench/serbench/codec/protobuf/pb"
	"github.com/serbench/serbench/scenario"
)

// For returns the Conv between sample's type and its message in package pb
// (made by protoc-gen-go, used by the protobuf and vtprotobuf codecs), and
// false when the schema has no message for that type. sample is a pointer
// to a seed scenario value (*scenario.WSMessage, ...).
func For(sample any) (Conv, bool) {
	switch sample.(type) {
	case *scenario.SSEEvent:
		return NewConv(sseToPB, sseFromPB), true
	case *scenario.UserEvent:
		return NewConv(userEventToPB, userEventFromPB), true
	case *scenario.WSMessage:
		return NewConv(wsToPB, wsFromPB), true
	case *scenario.Annotation:
		return NewConv(annotationToPB, annotationFromPB), true
	case *scenario.UserProfile:
		return NewConv(profileToPB, profileFromPB), true
	}
	return Conv{}, false
}

// timeToPB keeps t's instant; its zone is lost.
func timeToPB(t time.Time) *timestamppb.Timestamp { return timestamppb.New(t) }

// timeFromPB returns the instant of ts in UTC, or the zero time for nil.
func timeFromPB(ts *timestamppb.Timestamp) time.Time {
	if ts == nil {
		return time.Time{}
	}
	return ts.AsTime()
}

func sseToPB(v *scenario.SSEEvent) *pb.SSEEvent {
	return &pb.SSEEvent{Id: v.ID, Event: v.Event, Data: v.Data, Replay: v.Replay, Meta: v.Meta}
}

func sseFromPB(m *pb.SSEEvent) *scenario.SSEEvent {
	return &scenario.SSEEvent{ID: m.Id, Event: m.Event, Data: m.Data, Replay: m.Replay, Meta: m.Meta}
}

func userEventToPB(v *scenario.UserEvent) *pb.UserEvent {
	m := &pb.UserEvent{
		EventId:    v.EventID,
		UserId:     v.UserID,
		SessionId:  v.SessionID,
		Type:       v.Type,
		OccurredAt: timeToPB(v.OccurredAt),
		Source: &pb.EventSource{App: v.Source.App, Version: v.Source.Version, Os: v.Source.OS,
			Ip: v.Source.IP, Locale: v.Source.Locale},
		Tags: v.Tags,
		Items: Slice(v.Items, func(it scenario.EventItem) *pb.EventItem {
			return &pb.EventItem{Sku: it.SKU, Name: it.Name, Quantity: it.Quantity, Price: it.Price, Currency: it.Currency}
		}),
		Scores: v.Scores,
		Flags:  v.Flags,
	}
	if v.Attributes != nil {
		m.Attributes = make(map[string]*pb.StringMap, len(v.Attributes))
		for k, inner := range v.Attributes {
			m.Attributes[k] = &pb.StringMap{Entries: inner}
		}
	}
	return m
}

func userEventFromPB(m *pb.UserEvent) *scenario.UserEvent {
	v := &scenario.UserEvent{
		EventID:    m.EventId,
		UserID:     m.UserId,
		SessionID:  m.SessionId,
		Type:       m.Type,
		OccurredAt: timeFromPB(m.OccurredAt),
		Tags:       m.Tags,
		Items: Slice(m.Items, func(it *pb.EventItem) scenario.EventItem {
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

func wsToPB(v *scenario.WSMessage) *pb.WSMessage {
	return &pb.WSMessage{Uid: v.Uid, Content: v.Content, Timestamp: v.Timestamp}
}

func wsFromPB(m *pb.WSMessage) *scenario.WSMessage {
	return &scenario.WSMessage{Uid: m.Uid, Content: m.Content, Timestamp: m.Timestamp}
}

func annotationToPB(v *scenario.Annotation) *pb.Annotation {
	return &pb.Annotation{
		Id: v.ID,
		Labels: Slice(v.Labels, func(l scenario.Label) *pb.Label {
			return &pb.Label{Name: l.Name, Confidence: l.Confidence,
				Box: &pb.BBox{X: l.Box.X, Y: l.Box.Y, W: l.Box.W, H: l.Box.H}}
		}),
		Annotator: v.Annotator,
		Timestamp: v.Timestamp,
	}
}

func annotationFromPB(m *pb.Annotation) *scenario.Annotation {
	return &scenario.Annotation{
		ID: m.Id,
		Labels: Slice(m.Labels, func(l *pb.Label) scenario.Label {
			b := l.GetBox()
			return scenario.Label{Name: l.GetName(), Confidence: l.GetConfidence(),
				Box: scenario.BBox{X: b.GetX(), Y: b.GetY(), W: b.GetW(), H: b.GetH()}}
		}),
		Annotator: m.Annotator,
		Timestamp: m.Timestamp,
	}
}

func profileToPB(v *scenario.UserProfile) *pb.UserProfile {
	return &pb.UserProfile{
		Id:    int64(v.ID),
		Name:  v.Name,
		Email: v.Email,
		Addresses: Slice(v.Addresses, func(a scenario.Address) *pb.Address {
			return &pb.Address{Street: a.Street, City: a.City, State: a.State, ZipCode: a.ZipCode, IsBilling: a.IsBilling}
		}),
		IsActive:  v.IsActive,
		CreatedAt: timeToPB(v.CreatedAt),
		Metadata:  v.Metadata,
	}
}

func profileFromPB(m *pb.UserProfile) *scenario.UserProfile {
	return &scenario.UserProfile{
		ID:    int(m.Id),
		Name:  m.Name,
		Email: m.Email,
		Addresses: Slice(m.Addresses, func(a *pb.Address) scenario.Address {
			return scenario.Address{Street: a.GetStreet(), City: a.GetCity(), State: a.GetState(),
				ZipCode: a.GetZipCode(), IsBilling: a.GetIsBilling()}
		}),
		IsActive:  m.IsActive,
		CreatedAt: timeFromPB(m.CreatedAt),
		Metadata:  m.Metadata,
	}
}
