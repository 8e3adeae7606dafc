package mirror

import (
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

// Convs are the conversions between the five seed types of package
// scenario (and the three annotation workload types) and their mirrors, for codec.Converting.Convs.
//
// Conversions copy every struct and every slice of structs. Strings, and
// slices and maps whose element types are the same on both sides ([]string,
// []float64, []bool, map[string]string), are shared rather than copied: the
// codecs only read them, and FromNative's result is built from a freshly
// decoded value. nil stays nil and empty stays empty.
var Convs = []codec.Conv{
	codec.NewConv(sseToMirror, sseFromMirror),
	codec.NewConv(userEventToMirror, userEventFromMirror),
	codec.NewConv(wsToMirror, wsFromMirror),
	codec.NewConv(annotationToMirror, annotationFromMirror),
	codec.NewConv(profileToMirror, profileFromMirror),
	codec.NewConv(sparseToMirror, sparseFromMirror),
	codec.NewConv(boxesToMirror, boxesFromMirror),
	codec.NewConv(seriesToMirror, seriesFromMirror),
}

// Missing is the reason a codec on the mirror types gives for any other
// type (codec.Converting.Missing).
const Missing = "no generated type for %T (only the five seed scenarios and the annotation workloads have one)"

func sseToMirror(s *scenario.SSEEvent) *SSEEvent {
	return &SSEEvent{ID: s.ID, Event: s.Event, Data: s.Data, Replay: s.Replay, Meta: s.Meta}
}

func sseFromMirror(m *SSEEvent) *scenario.SSEEvent {
	return &scenario.SSEEvent{ID: m.ID, Event: m.Event, Data: m.Data, Replay: m.Replay, Meta: m.Meta}
}

func wsToMirror(s *scenario.WSMessage) *WSMessage {
	return &WSMessage{Uid: s.Uid, Content: s.Content, Timestamp: s.Timestamp}
}

func wsFromMirror(m *WSMessage) *scenario.WSMessage {
	return &scenario.WSMessage{Uid: m.Uid, Content: m.Content, Timestamp: m.Timestamp}
}

func userEventToMirror(s *scenario.UserEvent) *UserEvent {
	m := &UserEvent{
		EventID: s.EventID, UserID: s.UserID, SessionID: s.SessionID, Type: s.Type,
		OccurredAt: s.OccurredAt, Source: EventSource(s.Source), Tags: s.Tags,
		Attributes: s.Attributes, Scores: s.Scores, Flags: s.Flags,
	}
	if s.Items != nil {
		m.Items = make([]EventItem, len(s.Items))
		for i, it := range s.Items {
			m.Items[i] = EventItem(it)
		}
	}
	return m
}

func userEventFromMirror(m *UserEvent) *scenario.UserEvent {
	s := &scenario.UserEvent{
		EventID: m.EventID, UserID: m.UserID, SessionID: m.SessionID, Type: m.Type,
		OccurredAt: m.OccurredAt, Source: scenario.EventSource(m.Source), Tags: m.Tags,
		Attributes: m.Attributes, Scores: m.Scores, Flags: m.Flags,
	}
	if m.Items != nil {
		s.Items = make([]scenario.EventItem, len(m.Items))
		for i, it := range m.Items {
			s.Items[i] = scenario.EventItem(it)
		}
	}
	return s
}

func annotationToMirror(s *scenario.Annotation) *Annotation {
	m := &Annotation{ID: s.ID, Annotator: s.Annotator, Timestamp: s.Timestamp}
	if s.Labels != nil {
		m.Labels = make([]Label, len(s.Labels))
		for i, l := range s.Labels {
			m.Labels[i] = Label{Name: l.Name, Confidence: l.Confidence, Box: BBox(l.Box)}
		}
	}
	return m
}

func annotationFromMirror(m *Annotation) *scenario.Annotation {
	s := &scenario.Annotation{ID: m.ID, Annotator: m.Annotator, Timestamp: m.Timestamp}
	if m.Labels != nil {
		s.Labels = make([]scenario.Label, len(m.Labels))
		for i, l := range m.Labels {
			s.Labels[i] = scenario.Label{Name: l.Name, Confidence: l.Confidence, Box: scenario.BBox(l.Box)}
		}
	}
	return s
}

func profileToMirror(s *scenario.UserProfile) *UserProfile {
	m := &UserProfile{
		ID: s.ID, Name: s.Name, Email: s.Email, IsActive: s.IsActive,
		CreatedAt: s.CreatedAt, Metadata: s.Metadata,
	}
	if s.Addresses != nil {
		m.Addresses = make([]Address, len(s.Addresses))
		for i, a := range s.Addresses {
			m.Addresses[i] = Address(a)
		}
	}
	return m
}

func profileFromMirror(m *UserProfile) *scenario.UserProfile {
	s := &scenario.UserProfile{
		ID: m.ID, Name: m.Name, Email: m.Email, IsActive: m.IsActive,
		CreatedAt: m.CreatedAt, Metadata: m.Metadata,
	}
	if m.Addresses != nil {
		s.Addresses = make([]scenario.Address, len(m.Addresses))
		for i, a := range m.Addresses {
			s.Addresses[i] = scenario.Address(a)
		}
	}
	return s
}
