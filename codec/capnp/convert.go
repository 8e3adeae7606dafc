package capnp

import (
	"maps"
	"slices"
	"time"

	capnp "capnproto.org/go/capnp/v3"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/capnp/capnpb"
	"github.com/serbench/serbench/scenario"
)

// The build functions write a scenario value into a new message's root
// struct, field by field through the generated setters; the read functions
// copy a root struct back into a new scenario value (every Text is copied
// into a Go string). Both are what a Cap'n Proto user writes around
// generated accessors, which hold no Go values of their own.
//
// What the round trip keeps and loses:
//   - time.Time keeps its instant to the nanosecond (Unix seconds and
//     nanoseconds, any year) and its offset from UTC, not its zone name: it
//     comes back in a time.FixedZone with an empty name (or time.UTC for
//     offset 0).
//   - Maps become lists of key/value structs sorted by key.
//   - A nil slice or map is written as a null pointer and read back as nil;
//     an empty one as an empty list, read back empty. Nothing else is lost.

// errs keeps the first error of a sequence of calls, so that build and read
// functions can chain the generated accessors and check once at the end.
type errs struct{ err error }

func (e *errs) set(err error) {
	if e.err == nil && err != nil {
		e.err = err
	}
}

func (e *errs) text(s string, err error) string {
	e.set(err)
	return s
}

func setTime(e *errs, newTime func() (capnpb.Time, error), t time.Time) {
	c, err := newTime()
	if err != nil {
		e.set(err)
		return
	}
	sec, nanos, off := codec.TimeParts(t)
	c.SetUnixSeconds(sec)
	c.SetNanos(nanos)
	c.SetOffsetSeconds(off)
}

func readTime(e *errs, has bool, get func() (capnpb.Time, error)) time.Time {
	if !has {
		return time.Time{}
	}
	c, err := get()
	if err != nil {
		e.set(err)
		return time.Time{}
	}
	return codec.TimeFromParts(c.UnixSeconds(), int64(c.Nanos()), c.OffsetSeconds())
}

// setStringMap writes m, sorted by key, into the list newList makes; a nil
// m leaves the field null.
func setStringMap(e *errs, newList func(int32) (capnpb.StringEntry_List, error), m map[string]string) {
	if m == nil {
		return
	}
	l, err := newList(int32(len(m)))
	if err != nil {
		e.set(err)
		return
	}
	for i, k := range slices.Sorted(maps.Keys(m)) {
		en := l.At(i)
		e.set(en.SetKey(k))
		e.set(en.SetValue(m[k]))
	}
}

func readStringMap(e *errs, has bool, get func() (capnpb.StringEntry_List, error)) map[string]string {
	if !has {
		return nil
	}
	l, err := get()
	if err != nil {
		e.set(err)
		return nil
	}
	m := make(map[string]string, l.Len())
	for i := range l.Len() {
		en := l.At(i)
		m[e.text(en.Key())] = e.text(en.Value())
	}
	return m
}

func buildSSE(seg *capnp.Segment, v *scenario.SSEEvent) error {
	r, err := capnpb.NewRootSSEEvent(seg)
	if err != nil {
		return err
	}
	var e errs
	e.set(r.SetId(v.ID))
	e.set(r.SetEvent(v.Event))
	e.set(r.SetData(v.Data))
	r.SetReplay(v.Replay)
	setStringMap(&e, r.NewMeta, v.Meta)
	return e.err
}

func readSSE(r capnpb.SSEEvent) (*scenario.SSEEvent, error) {
	var e errs
	v := &scenario.SSEEvent{ID: e.text(r.Id()), Event: e.text(r.Event()), Data: e.text(r.Data()), Replay: r.Replay(),
		Meta: readStringMap(&e, r.HasMeta(), r.Meta)}
	return v, e.err
}

func buildUserEvent(seg *capnp.Segment, v *scenario.UserEvent) error {
	r, err := capnpb.NewRootUserEvent(seg)
	if err != nil {
		return err
	}
	var e errs
	r.SetEventId(v.EventID)
	r.SetUserId(v.UserID)
	e.set(r.SetSessionId(v.SessionID))
	e.set(r.SetType(v.Type))
	setTime(&e, r.NewOccurredAt, v.OccurredAt)
	if src, err := r.NewSource(); err != nil {
		e.set(err)
	} else {
		e.set(src.SetApp(v.Source.App))
		e.set(src.SetVersion(v.Source.Version))
		e.set(src.SetOs(v.Source.OS))
		e.set(src.SetIp(v.Source.IP))
		e.set(src.SetLocale(v.Source.Locale))
	}
	if v.Tags != nil {
		l, err := r.NewTags(int32(len(v.Tags)))
		e.set(err)
		for i, t := range v.Tags {
			if err == nil {
				e.set(l.Set(i, t))
			}
		}
	}
	if v.Items != nil {
		l, err := r.NewItems(int32(len(v.Items)))
		e.set(err)
		for i, it := range v.Items {
			if err != nil {
				break
			}
			c := l.At(i)
			e.set(c.SetSku(it.SKU))
			e.set(c.SetName(it.Name))
			c.SetQuantity(it.Quantity)
			c.SetPrice(it.Price)
			e.set(c.SetCurrency(it.Currency))
		}
	}
	if v.Attributes != nil {
		l, err := r.NewAttributes(int32(len(v.Attributes)))
		e.set(err)
		for i, k := range slices.Sorted(maps.Keys(v.Attributes)) {
			if err != nil {
				break
			}
			c := l.At(i)
			e.set(c.SetKey(k))
			setStringMap(&e, c.NewValue, v.Attributes[k])
		}
	}
	if v.Scores != nil {
		l, err := r.NewScores(int32(len(v.Scores)))
		e.set(err)
		for i, s := range v.Scores {
			if err == nil {
				l.Set(i, s)
			}
		}
	}
	if v.Flags != nil {
		l, err := r.NewFlags(int32(len(v.Flags)))
		e.set(err)
		for i, f := range v.Flags {
			if err == nil {
				l.Set(i, f)
			}
		}
	}
	return e.err
}

func readUserEvent(r capnpb.UserEvent) (*scenario.UserEvent, error) {
	var e errs
	v := &scenario.UserEvent{EventID: r.EventId(), UserID: r.UserId(), SessionID: e.text(r.SessionId()), Type: e.text(r.Type()),
		OccurredAt: readTime(&e, r.HasOccurredAt(), r.OccurredAt)}
	if r.HasSource() {
		src, err := r.Source()
		e.set(err)
		v.Source = scenario.EventSource{App: e.text(src.App()), Version: e.text(src.Version()), OS: e.text(src.Os()),
			IP: e.text(src.Ip()), Locale: e.text(src.Locale())}
	}
	if r.HasTags() {
		l, err := r.Tags()
		e.set(err)
		v.Tags = make([]string, l.Len())
		for i := range v.Tags {
			v.Tags[i] = e.text(l.At(i))
		}
	}
	if r.HasItems() {
		l, err := r.Items()
		e.set(err)
		v.Items = make([]scenario.EventItem, l.Len())
		for i := range v.Items {
			c := l.At(i)
			v.Items[i] = scenario.EventItem{SKU: e.text(c.Sku()), Name: e.text(c.Name()), Quantity: c.Quantity(),
				Price: c.Price(), Currency: e.text(c.Currency())}
		}
	}
	if r.HasAttributes() {
		l, err := r.Attributes()
		e.set(err)
		v.Attributes = make(map[string]map[string]string, l.Len())
		for i := range l.Len() {
			c := l.At(i)
			v.Attributes[e.text(c.Key())] = readStringMap(&e, c.HasValue(), c.Value)
		}
	}
	if r.HasScores() {
		l, err := r.Scores()
		e.set(err)
		v.Scores = make([]float64, l.Len())
		for i := range v.Scores {
			v.Scores[i] = l.At(i)
		}
	}
	if r.HasFlags() {
		l, err := r.Flags()
		e.set(err)
		v.Flags = make([]bool, l.Len())
		for i := range v.Flags {
			v.Flags[i] = l.At(i)
		}
	}
	return v, e.err
}

func buildWS(seg *capnp.Segment, v *scenario.WSMessage) error {
	r, err := capnpb.NewRootWSMessage(seg)
	if err != nil {
		return err
	}
	var e errs
	e.set(r.SetUid(v.Uid))
	e.set(r.SetContent(v.Content))
	r.SetTimestamp(v.Timestamp)
	return e.err
}

func readWS(r capnpb.WSMessage) (*scenario.WSMessage, error) {
	var e errs
	v := &scenario.WSMessage{Uid: e.text(r.Uid()), Content: e.text(r.Content()), Timestamp: r.Timestamp()}
	return v, e.err
}

func buildAnnotation(seg *capnp.Segment, v *scenario.Annotation) error {
	r, err := capnpb.NewRootAnnotation(seg)
	if err != nil {
		return err
	}
	var e errs
	e.set(r.SetId(v.ID))
	if v.Labels != nil {
		l, err := r.NewLabels(int32(len(v.Labels)))
		e.set(err)
		for i, lb := range v.Labels {
			if err != nil {
				break
			}
			c := l.At(i)
			e.set(c.SetName(lb.Name))
			c.SetConfidence(lb.Confidence)
			box, err := c.NewBox()
			e.set(err)
			box.SetX(lb.Box.X)
			box.SetY(lb.Box.Y)
			box.SetW(lb.Box.W)
			box.SetH(lb.Box.H)
		}
	}
	e.set(r.SetAnnotator(v.Annotator))
	r.SetTimestamp(v.Timestamp)
	return e.err
}

func readAnnotation(r capnpb.Annotation) (*scenario.Annotation, error) {
	var e errs
	v := &scenario.Annotation{ID: e.text(r.Id()), Annotator: e.text(r.Annotator()), Timestamp: r.Timestamp()}
	if r.HasLabels() {
		l, err := r.Labels()
		e.set(err)
		v.Labels = make([]scenario.Label, l.Len())
		for i := range v.Labels {
			c := l.At(i)
			v.Labels[i] = scenario.Label{Name: e.text(c.Name()), Confidence: c.Confidence()}
			if c.HasBox() {
				box, err := c.Box()
				e.set(err)
				v.Labels[i].Box = scenario.BBox{X: box.X(), Y: box.Y(), W: box.W(), H: box.H()}
			}
		}
	}
	return v, e.err
}

func buildProfile(seg *capnp.Segment, v *scenario.UserProfile) error {
	r, err := capnpb.NewRootUserProfile(seg)
	if err != nil {
		return err
	}
	var e errs
	r.SetId(int64(v.ID))
	e.set(r.SetName(v.Name))
	e.set(r.SetEmail(v.Email))
	if v.Addresses != nil {
		l, err := r.NewAddresses(int32(len(v.Addresses)))
		e.set(err)
		for i, a := range v.Addresses {
			if err != nil {
				break
			}
			c := l.At(i)
			e.set(c.SetStreet(a.Street))
			e.set(c.SetCity(a.City))
			e.set(c.SetState(a.State))
			e.set(c.SetZipCode(a.ZipCode))
			c.SetIsBilling(a.IsBilling)
		}
	}
	r.SetIsActive(v.IsActive)
	setTime(&e, r.NewCreatedAt, v.CreatedAt)
	setStringMap(&e, r.NewMetadata, v.Metadata)
	return e.err
}

func readProfile(r capnpb.UserProfile) (*scenario.UserProfile, error) {
	var e errs
	v := &scenario.UserProfile{ID: int(r.Id()), Name: e.text(r.Name()), Email: e.text(r.Email()), IsActive: r.IsActive(),
		CreatedAt: readTime(&e, r.HasCreatedAt(), r.CreatedAt), Metadata: readStringMap(&e, r.HasMetadata(), r.Metadata)}
	if r.HasAddresses() {
		l, err := r.Addresses()
		e.set(err)
		v.Addresses = make([]scenario.Address, l.Len())
		for i := range v.Addresses {
			c := l.At(i)
			v.Addresses[i] = scenario.Address{Street: e.text(c.Street()), City: e.text(c.City()), State: e.text(c.State()),
				ZipCode: e.text(c.ZipCode()), IsBilling: c.IsBilling()}
		}
	}
	return v, e.err
}
