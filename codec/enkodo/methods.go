package enkodo

import (
	"fmt"
	"time"

	"github.com/mojura/enkodo"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

// The seed scenario types under this package's names, with the enkodo
// methods written by hand: every field in declaration order; a slice or
// map as its length (-1 for nil) and its elements; a nested struct inline;
// a time.Time as codec.TimeParts (Unix seconds, nanoseconds, offset).
type (
	sseEvent    scenario.SSEEvent
	userEvent   scenario.UserEvent
	wsMessage   scenario.WSMessage
	annotation  scenario.Annotation
	userProfile scenario.UserProfile
)

// out writes fields one after another and keeps the first error.
type out struct {
	e   *enkodo.Encoder
	err error
}

func (w *out) keep(err error) {
	if w.err == nil {
		w.err = err
	}
}

func (w *out) str(s string)   { w.keep(w.e.String(s)) }
func (w *out) i64(v int64)    { w.keep(w.e.Int64(v)) }
func (w *out) u64(v uint64)   { w.keep(w.e.Uint64(v)) }
func (w *out) f64(v float64)  { w.keep(w.e.Float64(v)) }
func (w *out) f32(v float32)  { w.keep(w.e.Float32(v)) }
func (w *out) boolean(v bool) { w.keep(w.e.Bool(v)) }
func (w *out) length(n int)   { w.i64(int64(n)) }
func (w *out) nilLength()     { w.i64(-1) }
func (w *out) time(t time.Time) {
	sec, nanos, off := codec.TimeParts(t)
	w.i64(sec)
	w.i64(int64(nanos))
	w.i64(int64(off))
}

// count writes the length of a slice or map, -1 for nil, and reports
// whether elements follow.
func (w *out) count(isNil bool, n int) bool {
	if isNil {
		w.nilLength()
		return false
	}
	w.length(n)
	return true
}

func (w *out) strings(s []string) {
	if w.count(s == nil, len(s)) {
		for _, v := range s {
			w.str(v)
		}
	}
}

func (w *out) stringMap(m map[string]string) {
	if w.count(m == nil, len(m)) {
		for k, v := range m {
			w.str(k)
			w.str(v)
		}
	}
}

// in reads fields one after another and keeps the first error; after an
// error every read returns the zero value.
type in struct {
	d   *enkodo.Decoder
	err error
}

// get reads one value with f unless an earlier read failed.
func get[T any](r *in, f func() (T, error)) (v T) {
	if r.err == nil {
		v, r.err = f()
	}
	return v
}

func (r *in) str() string  { return get(r, r.d.String) }
func (r *in) i64() int64   { return get(r, r.d.Int64) }
func (r *in) u64() uint64  { return get(r, r.d.Uint64) }
func (r *in) f64() float64 { return get(r, r.d.Float64) }
func (r *in) f32() float32 { return get(r, r.d.Float32) }

// boolean reads a bool strictly: the library reads any byte but 1 as
// false.
func (r *in) boolean() bool {
	if r.err != nil {
		return false
	}
	b, err := r.d.Uint8()
	switch {
	case err != nil:
		r.err = err
	case b > 1:
		r.err = fmt.Errorf("bool byte %d", b)
	}
	return b == 1
}

// i32 reads an int64 and rejects one outside int32.
func (r *in) i32() int32 {
	v := r.i64()
	if int64(int32(v)) != v && r.err == nil {
		r.err = fmt.Errorf("%d overflows int32", v)
	}
	return int32(v)
}

func (r *in) time() time.Time {
	sec, nanos, off := r.i64(), r.i64(), r.i32()
	if r.err == nil && (nanos < 0 || nanos >= 1e9) {
		r.err = fmt.Errorf("time nanoseconds %d outside [0, 1e9)", nanos)
	}
	if r.err != nil {
		return time.Time{}
	}
	return codec.TimeFromParts(sec, nanos, off)
}

// length reads the length of a slice or map: -1 for nil. The caller
// makes room for at most prealloc elements up front and appends the rest,
// so a forged length costs reads that fail at the end of the message, not
// an allocation of its size.
func (r *in) length() (n int, isNil bool) {
	v := r.i64()
	switch {
	case r.err != nil || v == -1:
		return 0, true
	case v < 0 || v > maxLength:
		r.err = fmt.Errorf("length %d outside [-1, %d]", v, maxLength)
		return 0, true
	}
	return int(v), false
}

// maxLength bounds a slice or map length; prealloc bounds the room made
// for its elements before they are read.
const (
	maxLength = 1<<31 - 1
	prealloc  = 64
)

// list reads a slice of n elements with elem, nil for a nil one.
func list[T any](r *in, elem func() T) []T {
	n, isNil := r.length()
	if isNil {
		return nil
	}
	s := make([]T, 0, min(n, prealloc))
	for range n {
		if r.err != nil {
			return nil
		}
		s = append(s, elem())
	}
	return s
}

// dict reads a map of n entries, each a string key and val, nil for a nil one.
func dict[V any](r *in, val func() V) map[string]V {
	n, isNil := r.length()
	if isNil {
		return nil
	}
	m := make(map[string]V, min(n, prealloc))
	for range n {
		if r.err != nil {
			return nil
		}
		k := r.str()
		m[k] = val()
	}
	return m
}

func (m *sseEvent) MarshalEnkodo(e *enkodo.Encoder) error {
	w := &out{e: e}
	w.str(m.ID)
	w.str(m.Event)
	w.str(m.Data)
	w.boolean(m.Replay)
	w.stringMap(m.Meta)
	return w.err
}

func (m *sseEvent) UnmarshalEnkodo(d *enkodo.Decoder) error {
	r := &in{d: d}
	m.ID = r.str()
	m.Event = r.str()
	m.Data = r.str()
	m.Replay = r.boolean()
	m.Meta = dict(r, r.str)
	return r.err
}

func (m *userEvent) MarshalEnkodo(e *enkodo.Encoder) error {
	w := &out{e: e}
	w.u64(m.EventID)
	w.u64(m.UserID)
	w.str(m.SessionID)
	w.str(m.Type)
	w.time(m.OccurredAt)
	s := m.Source
	w.str(s.App)
	w.str(s.Version)
	w.str(s.OS)
	w.str(s.IP)
	w.str(s.Locale)
	w.strings(m.Tags)
	if w.count(m.Items == nil, len(m.Items)) {
		for _, it := range m.Items {
			w.str(it.SKU)
			w.str(it.Name)
			w.i64(int64(it.Quantity))
			w.f64(it.Price)
			w.str(it.Currency)
		}
	}
	if w.count(m.Attributes == nil, len(m.Attributes)) {
		for k, v := range m.Attributes {
			w.str(k)
			w.stringMap(v)
		}
	}
	if w.count(m.Scores == nil, len(m.Scores)) {
		for _, v := range m.Scores {
			w.f64(v)
		}
	}
	if w.count(m.Flags == nil, len(m.Flags)) {
		for _, v := range m.Flags {
			w.boolean(v)
		}
	}
	return w.err
}

func (m *userEvent) UnmarshalEnkodo(d *enkodo.Decoder) error {
	r := &in{d: d}
	m.EventID = r.u64()
	m.UserID = r.u64()
	m.SessionID = r.str()
	m.Type = r.str()
	m.OccurredAt = r.time()
	m.Source = scenario.EventSource{App: r.str(), Version: r.str(), OS: r.str(), IP: r.str(), Locale: r.str()}
	m.Tags = list(r, r.str)
	m.Items = list(r, func() scenario.EventItem {
		return scenario.EventItem{SKU: r.str(), Name: r.str(), Quantity: r.i32(), Price: r.f64(), Currency: r.str()}
	})
	m.Attributes = dict(r, func() map[string]string { return dict(r, r.str) })
	m.Scores = list(r, r.f64)
	m.Flags = list(r, r.boolean)
	return r.err
}

func (m *wsMessage) MarshalEnkodo(e *enkodo.Encoder) error {
	w := &out{e: e}
	w.str(m.Uid)
	w.str(m.Content)
	w.i64(m.Timestamp)
	return w.err
}

func (m *wsMessage) UnmarshalEnkodo(d *enkodo.Decoder) error {
	r := &in{d: d}
	m.Uid = r.str()
	m.Content = r.str()
	m.Timestamp = r.i64()
	return r.err
}

func (m *annotation) MarshalEnkodo(e *enkodo.Encoder) error {
	w := &out{e: e}
	w.str(m.ID)
	if w.count(m.Labels == nil, len(m.Labels)) {
		for _, l := range m.Labels {
			w.str(l.Name)
			w.f32(l.Confidence)
			w.f32(l.Box.X)
			w.f32(l.Box.Y)
			w.f32(l.Box.W)
			w.f32(l.Box.H)
		}
	}
	w.str(m.Annotator)
	w.i64(m.Timestamp)
	return w.err
}

func (m *annotation) UnmarshalEnkodo(d *enkodo.Decoder) error {
	r := &in{d: d}
	m.ID = r.str()
	m.Labels = list(r, func() scenario.Label {
		return scenario.Label{Name: r.str(), Confidence: r.f32(),
			Box: scenario.BBox{X: r.f32(), Y: r.f32(), W: r.f32(), H: r.f32()}}
	})
	m.Annotator = r.str()
	m.Timestamp = r.i64()
	return r.err
}

func (m *userProfile) MarshalEnkodo(e *enkodo.Encoder) error {
	w := &out{e: e}
	w.i64(int64(m.ID))
	w.str(m.Name)
	w.str(m.Email)
	if w.count(m.Addresses == nil, len(m.Addresses)) {
		for _, a := range m.Addresses {
			w.str(a.Street)
			w.str(a.City)
			w.str(a.State)
			w.str(a.ZipCode)
			w.boolean(a.IsBilling)
		}
	}
	w.boolean(m.IsActive)
	w.time(m.CreatedAt)
	w.stringMap(m.Metadata)
	return w.err
}

func (m *userProfile) UnmarshalEnkodo(d *enkodo.Decoder) error {
	r := &in{d: d}
	m.ID = int(r.i64())
	m.Name = r.str()
	m.Email = r.str()
	m.Addresses = list(r, func() scenario.Address {
		return scenario.Address{Street: r.str(), City: r.str(), State: r.str(), ZipCode: r.str(), IsBilling: r.boolean()}
	})
	m.IsActive = r.boolean()
	m.CreatedAt = r.time()
	m.Metadata = dict(r, r.str)
	return r.err
}
