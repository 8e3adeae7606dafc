package mirror

import (
	"fmt"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

// Binder converts between one seed type of package scenario and its mirror.
// Funcs embeds it in its Binding, which makes the Binding a
// codec.Converter. The zero Binder is not usable; get one from Bind.
//
// Conversions copy every struct and every slice of structs. Strings, and
// slices and maps whose element types are the same on both sides ([]string,
// []float64, []bool, map[string]string), are shared rather than copied: the
// codecs only read them, and FromNative's result is built from a freshly
// decoded value. nil stays nil and empty stays empty.
type Binder struct {
	newMirror func() any
	to        func(any) (any, bool)
	from      func(any) (any, bool)
	want      string // the scenario type, for errors
}

// Bind returns the Binder for the type of sample, a pointer to one of the
// five seed types of package scenario. For any other type it returns an
// error wrapping codec.ErrUnsupported, naming codec id and the type.
func Bind(id string, sample any) (Binder, error) {
	b := Binder{want: fmt.Sprintf("%T", sample)}
	switch sample.(type) {
	case *scenario.SSEEvent:
		b.newMirror = func() any { return new(SSEEvent) }
		b.to = convert(sseToMirror)
		b.from = convert(sseFromMirror)
	case *scenario.UserEvent:
		b.newMirror = func() any { return new(UserEvent) }
		b.to = convert(userEventToMirror)
		b.from = convert(userEventFromMirror)
	case *scenario.WSMessage:
		b.newMirror = func() any { return new(WSMessage) }
		b.to = convert(wsToMirror)
		b.from = convert(wsFromMirror)
	case *scenario.Annotation:
		b.newMirror = func() any { return new(Annotation) }
		b.to = convert(annotationToMirror)
		b.from = convert(annotationFromMirror)
	case *scenario.UserProfile:
		b.newMirror = func() any { return new(UserProfile) }
		b.to = convert(profileToMirror)
		b.from = convert(profileFromMirror)
	default:
		return Binder{}, codec.Unsupported(id, "no generated type for %T (only the five seed scenarios have one)", sample)
	}
	return b, nil
}

// New returns a pointer to a new zero mirror value of the bound type, for
// Unmarshal to decode into.
func (b Binder) New() any { return b.newMirror() }

// ToNative implements codec.Converter: v must be a pointer to the bound
// scenario type; the result is a pointer to its mirror.
func (b Binder) ToNative(v any) (any, error) {
	m, ok := b.to(v)
	if !ok {
		return nil, fmt.Errorf("mirror: ToNative wants %s, got %T", b.want, v)
	}
	return m, nil
}

// FromNative implements codec.Converter: v must be a pointer to the mirror
// of the bound type; the result is a pointer to the scenario type.
func (b Binder) FromNative(v any) (any, error) {
	s, ok := b.from(v)
	if !ok {
		return nil, fmt.Errorf("mirror: FromNative wants the mirror of %s, got %T", b.want, v)
	}
	return s, nil
}

// convert adapts a typed conversion to one on any that reports a wrong or
// nil input instead of panicking.
func convert[In, Out any](f func(*In) *Out) func(any) (any, bool) {
	return func(v any) (any, bool) {
		p, ok := v.(*In)
		if !ok || p == nil {
			return nil, false
		}
		return f(p), true
	}
}

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
