package wire

import (
	"strings"

	"github.com/serbench/serbench/scenario"
)

// Views of the seed scenario types (see lazy.go for the rules). Each View
// function checks and reads a whole message as Unmarshal does, with the same
// errors; after an error the view holds a partial message and must not be
// used. Each view's Copy builds the scenario value, owning copies of its
// strings, that Unmarshal would have returned.

// SSEEventView reads an sse-event message in place.
type SSEEventView struct {
	id, event, data string
	replay          bool
	meta            StringMapView
}

func (v *SSEEventView) ID() string          { return v.id }
func (v *SSEEventView) Event() string       { return v.event }
func (v *SSEEventView) Data() string        { return v.data }
func (v *SSEEventView) Replay() bool        { return v.replay }
func (v *SSEEventView) Meta() StringMapView { return v.meta }

// ViewSSEEvent checks data and fills v with a view of it.
func (m DecMode) ViewSSEEvent(data []byte, v *SSEEventView) error {
	d := viewDecoder(data, m)
	d.Version()
	v.id = d.String()
	v.event = d.String()
	v.data = d.String()
	v.replay = d.Bool()
	v.meta = d.stringMapView()
	return d.Finish()
}

// Copy returns the message as a new value.
func (v *SSEEventView) Copy() *scenario.SSEEvent {
	return &scenario.SSEEvent{ID: strings.Clone(v.id), Event: strings.Clone(v.event), Data: strings.Clone(v.data),
		Replay: v.replay, Meta: v.meta.Copy()}
}

// Copy returns the map as a new map[string]string (nil when encoded nil).
func (v StringMapView) Copy() map[string]string {
	if v.isNil {
		return nil
	}
	m := make(map[string]string, v.n)
	for it := v.Iter(); it.Next(); {
		e := it.Value()
		m[strings.Clone(e.Key)] = strings.Clone(e.Value)
	}
	return m
}

// Copy returns the strings as a new []string (nil when encoded nil).
func (v StringsView) Copy() []string {
	if v.isNil {
		return nil
	}
	s := make([]string, 0, v.n)
	for it := v.Iter(); it.Next(); {
		s = append(s, strings.Clone(it.Value()))
	}
	return s
}

// UserEventView reads a user-event message in place.
type UserEventView struct {
	eventID, userID uint64
	sessionID, typ  string
	occurredAt      TimeView
	source          EventSourceView
	tags            StringsView
	items           EventItemsView
	attributes      StringMapMapView
	scores          Float64sView
	flags           BoolsView
}

func (v *UserEventView) EventID() uint64              { return v.eventID }
func (v *UserEventView) UserID() uint64               { return v.userID }
func (v *UserEventView) SessionID() string            { return v.sessionID }
func (v *UserEventView) Type() string                 { return v.typ }
func (v *UserEventView) OccurredAt() TimeView         { return v.occurredAt }
func (v *UserEventView) Source() EventSourceView      { return v.source }
func (v *UserEventView) Tags() StringsView            { return v.tags }
func (v *UserEventView) Items() EventItemsView        { return v.items }
func (v *UserEventView) Attributes() StringMapMapView { return v.attributes }
func (v *UserEventView) Scores() Float64sView         { return v.scores }
func (v *UserEventView) Flags() BoolsView             { return v.flags }

// EventSourceView is a scenario.EventSource whose strings view the message.
type EventSourceView struct{ App, Version, OS, IP, Locale string }

// EventItemView is a scenario.EventItem whose strings view the message.
type EventItemView struct {
	SKU, Name string
	Quantity  int32
	Price     float64
	Currency  string
}

// EventItemsView is a []scenario.EventItem read in place.
type EventItemsView struct{ list }

// Iter returns an iterator over the elements.
func (v EventItemsView) Iter() Iter[EventItemView] { return newIter[EventItemView](v.list) }

func readEventItem(c *viewCursor, x *EventItemView) {
	x.SKU = c.str()
	x.Name = c.str()
	x.Quantity = int32(c.varint())
	x.Price = c.float64()
	x.Currency = c.str()
}

// ViewUserEvent checks data and fills v with a view of it.
func (m DecMode) ViewUserEvent(data []byte, v *UserEventView) error {
	d := viewDecoder(data, m)
	d.Version()
	v.eventID = d.Uvarint()
	v.userID = d.Uvarint()
	v.sessionID = d.String()
	v.typ = d.String()
	v.occurredAt = d.timeView()
	if d.Enter() {
		v.source.App = d.String()
		v.source.Version = d.String()
		v.source.OS = d.String()
		v.source.IP = d.String()
		v.source.Locale = d.String()
		d.Leave()
	}
	v.tags = d.stringsView()
	l, ok := d.list(minEventItem)
	if ok && d.enterN(2) {
		for range l.n {
			d.skipString()
			d.skipString()
			d.Int32()
			d.Float64()
			d.skipString()
		}
		d.leaveN(2)
	}
	v.items = EventItemsView{l}
	v.attributes = d.stringMapMapView()
	l, ok = d.list(8)
	if ok && d.Enter() {
		for range l.n {
			d.Float64()
		}
		d.Leave()
	}
	v.scores = Float64sView{l}
	l, ok = d.list(1)
	if ok && d.Enter() {
		for range l.n {
			d.Bool()
		}
		d.Leave()
	}
	v.flags = BoolsView{l}
	return d.Finish()
}

// Copy returns the message as a new value.
func (v *UserEventView) Copy() *scenario.UserEvent {
	u := &scenario.UserEvent{EventID: v.eventID, UserID: v.userID,
		SessionID: strings.Clone(v.sessionID), Type: strings.Clone(v.typ), OccurredAt: v.occurredAt.Time(),
		Source: scenario.EventSource{App: strings.Clone(v.source.App), Version: strings.Clone(v.source.Version),
			OS: strings.Clone(v.source.OS), IP: strings.Clone(v.source.IP), Locale: strings.Clone(v.source.Locale)},
		Tags: v.tags.Copy()}
	if !v.items.isNil {
		u.Items = make([]scenario.EventItem, 0, v.items.n)
		for it := v.items.Iter(); it.Next(); {
			x := it.Value()
			u.Items = append(u.Items, scenario.EventItem{SKU: strings.Clone(x.SKU), Name: strings.Clone(x.Name),
				Quantity: x.Quantity, Price: x.Price, Currency: strings.Clone(x.Currency)})
		}
	}
	if !v.attributes.isNil {
		u.Attributes = make(map[string]map[string]string, v.attributes.n)
		for it := v.attributes.Iter(); it.Next(); {
			e := it.Value()
			u.Attributes[strings.Clone(e.Key)] = e.Value.Copy()
		}
	}
	if !v.scores.isNil {
		u.Scores = make([]float64, v.scores.n)
		for i := range u.Scores {
			u.Scores[i] = v.scores.At(i)
		}
	}
	if !v.flags.isNil {
		u.Flags = make([]bool, v.flags.n)
		for i := range u.Flags {
			u.Flags[i] = v.flags.At(i)
		}
	}
	return u
}

// WSMessageView reads a ws-message message in place.
type WSMessageView struct {
	uid, content string
	timestamp    int64
}

func (v *WSMessageView) Uid() string      { return v.uid }
func (v *WSMessageView) Content() string  { return v.content }
func (v *WSMessageView) Timestamp() int64 { return v.timestamp }

// ViewWSMessage checks data and fills v with a view of it.
func (m DecMode) ViewWSMessage(data []byte, v *WSMessageView) error {
	d := viewDecoder(data, m)
	d.Version()
	v.uid = d.String()
	v.content = d.String()
	v.timestamp = d.Varint()
	return d.Finish()
}

// Copy returns the message as a new value.
func (v *WSMessageView) Copy() *scenario.WSMessage {
	return &scenario.WSMessage{Uid: strings.Clone(v.uid), Content: strings.Clone(v.content), Timestamp: v.timestamp}
}

// AnnotationView reads an annotation message in place.
type AnnotationView struct {
	id, annotator string
	labels        LabelsView
	timestamp     int64
}

func (v *AnnotationView) ID() string         { return v.id }
func (v *AnnotationView) Labels() LabelsView { return v.labels }
func (v *AnnotationView) Annotator() string  { return v.annotator }
func (v *AnnotationView) Timestamp() int64   { return v.timestamp }

// LabelView is a scenario.Label whose name views the message.
type LabelView struct {
	Name       string
	Confidence float32
	Box        scenario.BBox
}

// LabelsView is a []scenario.Label read in place.
type LabelsView struct{ list }

// Iter returns an iterator over the elements.
func (v LabelsView) Iter() Iter[LabelView] { return newIter[LabelView](v.list) }

func readLabel(c *viewCursor, x *LabelView) {
	x.Name = c.str()
	x.Confidence = c.float32()
	x.Box.X = c.float32()
	x.Box.Y = c.float32()
	x.Box.W = c.float32()
	x.Box.H = c.float32()
}

// ViewAnnotation checks data and fills v with a view of it.
func (m DecMode) ViewAnnotation(data []byte, v *AnnotationView) error {
	d := viewDecoder(data, m)
	d.Version()
	v.id = d.String()
	l, ok := d.list(minLabel)
	if ok && d.enterN(3) { // the list, each Label, its Box
		for range l.n {
			d.skipString()
			d.Float32()
			d.Float32()
			d.Float32()
			d.Float32()
			d.Float32()
		}
		d.leaveN(3)
	}
	v.labels = LabelsView{l}
	v.annotator = d.String()
	v.timestamp = d.Varint()
	return d.Finish()
}

// Copy returns the message as a new value.
func (v *AnnotationView) Copy() *scenario.Annotation {
	a := &scenario.Annotation{ID: strings.Clone(v.id), Annotator: strings.Clone(v.annotator), Timestamp: v.timestamp}
	if !v.labels.isNil {
		a.Labels = make([]scenario.Label, 0, v.labels.n)
		for it := v.labels.Iter(); it.Next(); {
			l := it.Value()
			a.Labels = append(a.Labels, scenario.Label{Name: strings.Clone(l.Name), Confidence: l.Confidence, Box: l.Box})
		}
	}
	return a
}

// UserProfileView reads a user-profile message in place.
type UserProfileView struct {
	id          int
	name, email string
	addresses   AddressesView
	isActive    bool
	createdAt   TimeView
	metadata    StringMapView
}

func (v *UserProfileView) ID() int                  { return v.id }
func (v *UserProfileView) Name() string             { return v.name }
func (v *UserProfileView) Email() string            { return v.email }
func (v *UserProfileView) Addresses() AddressesView { return v.addresses }
func (v *UserProfileView) IsActive() bool           { return v.isActive }
func (v *UserProfileView) CreatedAt() TimeView      { return v.createdAt }
func (v *UserProfileView) Metadata() StringMapView  { return v.metadata }

// AddressView is a scenario.Address whose strings view the message.
type AddressView struct {
	Street, City, State, ZipCode string
	IsBilling                    bool
}

// AddressesView is a []scenario.Address read in place.
type AddressesView struct{ list }

// Iter returns an iterator over the elements.
func (v AddressesView) Iter() Iter[AddressView] { return newIter[AddressView](v.list) }

func readAddress(c *viewCursor, x *AddressView) {
	x.Street = c.str()
	x.City = c.str()
	x.State = c.str()
	x.ZipCode = c.str()
	x.IsBilling = c.bool()
}

// ViewUserProfile checks data and fills v with a view of it.
func (m DecMode) ViewUserProfile(data []byte, v *UserProfileView) error {
	d := viewDecoder(data, m)
	d.Version()
	v.id = d.Int()
	v.name = d.String()
	v.email = d.String()
	l, ok := d.list(minAddress)
	if ok && d.enterN(2) {
		for range l.n {
			d.skipString()
			d.skipString()
			d.skipString()
			d.skipString()
			d.Bool()
		}
		d.leaveN(2)
	}
	v.addresses = AddressesView{l}
	v.isActive = d.Bool()
	v.createdAt = d.timeView()
	v.metadata = d.stringMapView()
	return d.Finish()
}

// Copy returns the message as a new value.
func (v *UserProfileView) Copy() *scenario.UserProfile {
	p := &scenario.UserProfile{ID: v.id, Name: strings.Clone(v.name), Email: strings.Clone(v.email),
		IsActive: v.isActive, CreatedAt: v.createdAt.Time(), Metadata: v.metadata.Copy()}
	if !v.addresses.isNil {
		p.Addresses = make([]scenario.Address, 0, v.addresses.n)
		for it := v.addresses.Iter(); it.Next(); {
			a := it.Value()
			p.Addresses = append(p.Addresses, scenario.Address{Street: strings.Clone(a.Street), City: strings.Clone(a.City),
				State: strings.Clone(a.State), ZipCode: strings.Clone(a.ZipCode), IsBilling: a.IsBilling})
		}
	}
	return p
}
