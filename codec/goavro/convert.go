package goavro

import (
	"fmt"
	"reflect"
	"time"

	"github.com/serbench/serbench/scenario"
)

// conv converts one scenario type to goavro's native record and back.
type conv struct {
	to   func(v any) (map[string]any, error)
	from func(m map[string]any) (any, error)
}

// newConv erases the types of to and from. The record decoded from bytes
// has the schema's shape, but FromNative also takes hand-made values, so
// from reports a field of the wrong type through rec.err rather than
// panicking.
func newConv[S any](to func(*S) map[string]any, from func(r *rec) *S) conv {
	return conv{
		to: func(v any) (map[string]any, error) {
			s, ok := v.(*S)
			if !ok || s == nil {
				return nil, fmt.Errorf("goavro: ToNative wants a non-nil %T, got %T", (*S)(nil), v)
			}
			return to(s), nil
		},
		from: func(m map[string]any) (any, error) {
			r := &rec{m: m}
			s := from(r)
			if r.err != nil {
				return nil, r.err
			}
			return s, nil
		},
	}
}

var convs = map[reflect.Type]conv{
	reflect.TypeFor[*scenario.SSEEvent]():    newConv(sseTo, sseFrom),
	reflect.TypeFor[*scenario.UserEvent]():   newConv(userEventTo, userEventFrom),
	reflect.TypeFor[*scenario.WSMessage]():   newConv(wsTo, wsFrom),
	reflect.TypeFor[*scenario.Annotation]():  newConv(annotationTo, annotationFrom),
	reflect.TypeFor[*scenario.UserProfile](): newConv(profileTo, profileFrom),
}

// rec reads the fields of a native record, keeping the first error: a
// missing field or one of another Go type than the schema gives.
type rec struct {
	m    map[string]any
	path string
	err  error
}

func get[T any](r *rec, key string) T {
	var zero T
	if r.err != nil {
		return zero
	}
	v, ok := r.m[key].(T)
	if !ok {
		r.err = fmt.Errorf("goavro: field %s%s: want %T, got %T", r.path, key, zero, r.m[key])
	}
	return v
}

// sub returns the record in field key, sharing r's error.
func (r *rec) sub(key string, m any) *rec {
	s := &rec{path: r.path + key + ".", err: r.err}
	if s.err != nil {
		return s
	}
	var ok bool
	if s.m, ok = m.(map[string]any); !ok {
		r.err = fmt.Errorf("goavro: field %s%s: want a record, got %T", r.path, key, m)
		s.err = r.err
	}
	return s
}

// each calls f on every element of the array in field key, each a record.
func each(r *rec, key string, f func(e *rec)) {
	for i, v := range get[[]any](r, key) {
		e := r.sub(fmt.Sprintf("%s[%d]", key, i), v)
		f(e)
		if e.err != nil && r.err == nil {
			r.err = e.err
		}
	}
}

func sliceOf[T any](r *rec, key string) []T {
	a := get[[]any](r, key)
	if a == nil {
		return nil
	}
	out := make([]T, len(a))
	for i, v := range a {
		x, ok := v.(T)
		if !ok && r.err == nil {
			r.err = fmt.Errorf("goavro: field %s%s[%d]: want %T, got %T", r.path, key, i, x, v)
		}
		out[i] = x
	}
	return out
}

func anySlice[T any](s []T) []any {
	if s == nil {
		return nil
	}
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func stringMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func stringMapOf(r *rec, key string, v any) map[string]string {
	m, ok := v.(map[string]any)
	if !ok {
		if r.err == nil {
			r.err = fmt.Errorf("goavro: field %s%s: want a map, got %T", r.path, key, v)
		}
		return nil
	}
	out := make(map[string]string, len(m))
	for k, x := range m {
		s, ok := x.(string)
		if !ok && r.err == nil {
			r.err = fmt.Errorf("goavro: field %s%s[%q]: want string, got %T", r.path, key, k, x)
		}
		out[k] = s
	}
	return out
}

func sseTo(e *scenario.SSEEvent) map[string]any {
	return map[string]any{"id": e.ID, "event": e.Event, "data": e.Data, "replay": e.Replay, "meta": stringMap(e.Meta)}
}

func sseFrom(r *rec) *scenario.SSEEvent {
	e := &scenario.SSEEvent{ID: get[string](r, "id"), Event: get[string](r, "event"), Data: get[string](r, "data"), Replay: get[bool](r, "replay")}
	e.Meta = stringMapOf(r, "meta", r.m["meta"])
	return e
}

func userEventTo(e *scenario.UserEvent) map[string]any {
	items := make([]any, len(e.Items))
	for i, it := range e.Items {
		items[i] = map[string]any{"sku": it.SKU, "name": it.Name, "quantity": it.Quantity, "price": it.Price, "currency": it.Currency}
	}
	attrs := make(map[string]any, len(e.Attributes))
	for k, m := range e.Attributes {
		attrs[k] = stringMap(m)
	}
	s := e.Source
	return map[string]any{
		"event_id": int64(e.EventID), "user_id": int64(e.UserID), // the same 64 bits: Avro has no unsigned long
		"session_id": e.SessionID, "type": e.Type, "occurred_at": e.OccurredAt,
		"source": map[string]any{"app": s.App, "version": s.Version, "os": s.OS, "ip": s.IP, "locale": s.Locale},
		"tags":   anySlice(e.Tags), "items": items, "attributes": attrs,
		"scores": anySlice(e.Scores), "flags": anySlice(e.Flags),
	}
}

func userEventFrom(r *rec) *scenario.UserEvent {
	e := &scenario.UserEvent{
		EventID: uint64(get[int64](r, "event_id")), UserID: uint64(get[int64](r, "user_id")),
		SessionID: get[string](r, "session_id"), Type: get[string](r, "type"),
		OccurredAt: get[time.Time](r, "occurred_at"),
		Tags:       sliceOf[string](r, "tags"), Scores: sliceOf[float64](r, "scores"), Flags: sliceOf[bool](r, "flags"),
	}
	s := r.sub("source", r.m["source"])
	e.Source = scenario.EventSource{App: get[string](s, "app"), Version: get[string](s, "version"), OS: get[string](s, "os"), IP: get[string](s, "ip"), Locale: get[string](s, "locale")}
	if s.err != nil && r.err == nil {
		r.err = s.err
	}
	each(r, "items", func(it *rec) {
		e.Items = append(e.Items, scenario.EventItem{SKU: get[string](it, "sku"), Name: get[string](it, "name"),
			Quantity: get[int32](it, "quantity"), Price: get[float64](it, "price"), Currency: get[string](it, "currency")})
	})
	attrs := get[map[string]any](r, "attributes")
	e.Attributes = make(map[string]map[string]string, len(attrs))
	for k, m := range attrs {
		e.Attributes[k] = stringMapOf(r, "attributes["+k+"]", m)
	}
	return e
}

func wsTo(m *scenario.WSMessage) map[string]any {
	return map[string]any{"uid": m.Uid, "content": m.Content, "timestamp": m.Timestamp}
}

func wsFrom(r *rec) *scenario.WSMessage {
	return &scenario.WSMessage{Uid: get[string](r, "uid"), Content: get[string](r, "content"), Timestamp: get[int64](r, "timestamp")}
}

func annotationTo(a *scenario.Annotation) map[string]any {
	labels := make([]any, len(a.Labels))
	for i, l := range a.Labels {
		labels[i] = map[string]any{"name": l.Name, "confidence": l.Confidence,
			"box": map[string]any{"x": l.Box.X, "y": l.Box.Y, "w": l.Box.W, "h": l.Box.H}}
	}
	return map[string]any{"id": a.ID, "labels": labels, "annotator": a.Annotator, "timestamp": a.Timestamp}
}

func annotationFrom(r *rec) *scenario.Annotation {
	a := &scenario.Annotation{ID: get[string](r, "id"), Annotator: get[string](r, "annotator"), Timestamp: get[int64](r, "timestamp")}
	each(r, "labels", func(l *rec) {
		b := l.sub("box", l.m["box"])
		a.Labels = append(a.Labels, scenario.Label{Name: get[string](l, "name"), Confidence: get[float32](l, "confidence"),
			Box: scenario.BBox{X: get[float32](b, "x"), Y: get[float32](b, "y"), W: get[float32](b, "w"), H: get[float32](b, "h")}})
		if b.err != nil && l.err == nil {
			l.err = b.err
		}
	})
	return a
}

func profileTo(p *scenario.UserProfile) map[string]any {
	addrs := make([]any, len(p.Addresses))
	for i, a := range p.Addresses {
		addrs[i] = map[string]any{"street": a.Street, "city": a.City, "state": a.State, "zip_code": a.ZipCode, "is_billing": a.IsBilling}
	}
	return map[string]any{"id": int64(p.ID), "name": p.Name, "email": p.Email, "addresses": addrs,
		"is_active": p.IsActive, "created_at": p.CreatedAt, "metadata": stringMap(p.Metadata)}
}

func profileFrom(r *rec) *scenario.UserProfile {
	p := &scenario.UserProfile{ID: int(get[int64](r, "id")), Name: get[string](r, "name"), Email: get[string](r, "email"),
		IsActive: get[bool](r, "is_active"), CreatedAt: get[time.Time](r, "created_at")}
	each(r, "addresses", func(a *rec) {
		p.Addresses = append(p.Addresses, scenario.Address{Street: get[string](a, "street"), City: get[string](a, "city"),
			State: get[string](a, "state"), ZipCode: get[string](a, "zip_code"), IsBilling: get[bool](a, "is_billing")})
	})
	p.Metadata = stringMapOf(r, "metadata", r.m["metadata"])
	return p
}
