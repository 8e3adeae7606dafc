package wire

import (
	"fmt"
	"unsafe"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

// Codec IDs.
const (
	ID      = "wire"       // Marshal returns new bytes per call
	ReuseID = "wire/reuse" // Marshal and Unmarshal return a buffer and a value the Binding owns
	LazyID  = "wire/lazy"  // Unmarshal returns a view over the input (lazy.go)
)

// Format is the codec.Info.Format of both codecs.
const Format = "serbench wire v1"

const module = "github.com/serbench/serbench"

// Scratch sizes: Binding.Marshal encodes into a stack buffer of this many
// bytes and copies the result into one exactly sized allocation, which
// measured no slower than computing the size first (BenchmarkMarshalStrategy)
// and walks the value's maps once instead of twice. A larger message grows
// onto the heap (one or two more allocations); the package-level Marshal
// always makes exactly one.
const (
	smallScratch = 256  // sse-event, ws-message, annotation, user-profile seeds: 60 to 160 bytes
	largeScratch = 1024 // user-event seed: about 520 bytes
)

// New returns the "wire" codec: Marshal returns a new slice per call (one
// allocation for messages that fit its scratch buffer), Unmarshal returns a
// new value per call, decoded with the default DecMode except that the
// strings view a copy of the message packed into a chunk of chunkSize bytes
// that the Binding fills message after message (one string allocation per
// chunk, not per message).
func New() codec.Codec { return wireCodec{} }

// NewReuse returns the "wire/reuse" codec: Marshal appends into a buffer the
// Binding owns and returns it, valid only until the next Marshal on that
// Binding, and Unmarshal decodes into a value the Binding owns, valid only
// until the next Unmarshal (codec.Info.ReusesOutput), so steady-state
// marshalling and unmarshalling allocate nothing.
func NewReuse() codec.Codec { return wireCodec{reuse: true} }

// NewLazy returns the "wire/lazy" codec: Marshal is wire's (new bytes per
// call); Unmarshal checks the message and reads every field once into a
// view the Binding owns (*SSEEventView, ...; see lazy.go), valid until the
// next Unmarshal and while data stays unchanged (codec.Info.ReusesOutput),
// allocating nothing. Its Bindings are codec.Converters: ToNative returns
// the scenario value unchanged (Marshal takes it as it is), and FromNative
// copies a view into a new scenario value (a scenario value it returns as
// it is), so the runner can compare the round trip.
func NewLazy() codec.Codec { return wireCodec{lazy: true} }

type wireCodec struct{ reuse, lazy bool }

var _ codec.Codec = wireCodec{}

// Appender is implemented by the "wire" and "wire/reuse" Bindings: a
// caller that owns a buffer can encode into it. AppendMarshal appends the
// encoding of v to dst and returns the extended slice.
type Appender interface {
	AppendMarshal(dst []byte, v any) ([]byte, error)
}

func (c wireCodec) Info() codec.Info {
	i := codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module), Format: Format,
		Kind: codec.Manual, Binary: true,
		Options: "Unmarshal copies each message into 4 KiB chunks the Binding fills one after another, which its strings view (a kept string keeps its chunk alive); time keeps instant and offset, not the zone name",
		Time:    "ns, offset kept, zone name lost; any year", Default: true}
	i.API = codec.APITyped
	i.Unsafe = true // package wire imports package unsafe (codec/all's TestUnsafe checks)
	if c.lazy {
		i.ID = LazyID
		i.ReusesOutput, i.ZeroCopy, i.Default = true, true, false
		i.Options = "Unmarshal checks the message and reads every field once into a view owned by the Binding " +
			"(strings are unsafe views of the input, collections iterated in place), valid until its next Unmarshal; " +
			"FromNative copies the view into a scenario value; convert is ToNative (identity) + FromNative of a scenario value (identity); " +
			"time keeps instant and offset, not the zone name"
	}
	if c.reuse {
		i.ID = ReuseID
		i.ReusesOutput = true
		i.Options = "Marshal returns a buffer owned by the Binding, valid until its next Marshal; " +
			"Unmarshal decodes into a value owned by the Binding (its slices, maps and one string buffer reused), valid until its next Unmarshal; " +
			"time keeps instant and offset, not the zone name"
	}
	return i
}

// The Bindings of the five seed types are generated from one template
// (binding_gen.go): a copy per type, so that each calls its encoder and
// decoder directly.
//
//go:generate go run github.com/serbench/serbench/internal/gencheck/generate wire-bindings

// Bind returns a Binding for the five seed types and the three annotation
// workload types, and an error wrapping
// codec.ErrUnsupported for any other.
func (c wireCodec) Bind(sample any) (codec.Binding, error) {
	id := c.Info().ID
	if c.lazy {
		return bindLazy(id, sample)
	}
	switch sample.(type) {
	case *scenario.SSEEvent:
		return &sseBinding{bindingBase: bindingBase{id: id, reuse: c.reuse}}, nil
	case *scenario.UserEvent:
		return &userEventBinding{bindingBase: bindingBase{id: id, reuse: c.reuse}}, nil
	case *scenario.WSMessage:
		return &wsBinding{bindingBase: bindingBase{id: id, reuse: c.reuse}}, nil
	case *scenario.Annotation:
		return &annotationBinding{bindingBase: bindingBase{id: id, reuse: c.reuse}}, nil
	case *scenario.UserProfile:
		return &profileBinding{bindingBase: bindingBase{id: id, reuse: c.reuse}}, nil
	}
	if b := bindAnnot(bindingBase{id: id, reuse: c.reuse}, sample); b != nil {
		return b, nil
	}
	return nil, codec.Unsupported(id, "no hand-written encoder for %T", sample)
}

type bindingBase struct {
	id    string
	reuse bool
	mode  DecMode
	buf   []byte
	rs    reuseState // wire/reuse's decoding storage
	kc    keyCache   // sorted map keys of the last message encoded
	chunk []byte     // free end of wire's current string chunk
}

// chunkSize is the size of the chunks that a "wire" Binding copies messages
// into for their strings; messages over a quarter of it get a copy of
// their own.
const chunkSize = 4096

// chunked copies data into the free end of the Binding's current string
// chunk (a new one when it does not fit) and returns a Decoder whose strings
// view that copy. Each message gets its own bytes, never written again, so
// decoded strings stay immutable; the cost is that a string kept from a
// value keeps its whole chunk (at most chunkSize bytes) alive.
func (b *bindingBase) chunked(data []byte) Decoder {
	n := len(data)
	if n == 0 || n > chunkSize/4 {
		var d Decoder
		d.init(data, b.mode)
		return d
	}
	if len(b.chunk) < n {
		b.chunk = make([]byte, chunkSize)
	}
	buf := b.chunk[:n:n]
	b.chunk = b.chunk[n:]
	copy(buf, data)
	d := Decoder{data: buf, mode: b.mode.resolved(), depth: 1}
	d.str = unsafe.String(unsafe.SliceData(buf), n)
	return d
}

// cache readies the key cache for a new message.
func (b *bindingBase) cache() *keyCache {
	b.kc.next = 0
	return &b.kc
}

func (b *bindingBase) typeErr(v any, want string) error {
	return fmt.Errorf("%s: Marshal wants %s, got %T", b.id, want, v)
}

// clone copies b into a new slice of exactly len(b) bytes.
func clone(b []byte) []byte {
	out := make([]byte, len(b))
	copy(out, b)
	return out
}

// Append appends the message encoding of v, a pointer to one of the five
// seed types or an annotation workload type, to dst. Any other type is an error.
func Append(dst []byte, v any) ([]byte, error) {
	switch p := v.(type) {
	case *scenario.SSEEvent:
		return AppendSSEEvent(dst, p), nil
	case *scenario.UserEvent:
		return AppendUserEvent(dst, p), nil
	case *scenario.WSMessage:
		return AppendWSMessage(dst, p), nil
	case *scenario.Annotation:
		return AppendAnnotation(dst, p), nil
	case *scenario.UserProfile:
		return AppendUserProfile(dst, p), nil
	}
	if out, ok := appendAnnot(dst, v); ok {
		return out, nil
	}
	return dst, fmt.Errorf("wire: no encoder for %T", v)
}

// Marshal returns the message encoding of v (see Append) in a new slice of
// exactly the right size, computed first by the Size functions.
func Marshal(v any) ([]byte, error) {
	switch p := v.(type) {
	case *scenario.SSEEvent:
		return AppendSSEEvent(make([]byte, 0, SizeSSEEvent(p)), p), nil
	case *scenario.UserEvent:
		return AppendUserEvent(make([]byte, 0, SizeUserEvent(p)), p), nil
	case *scenario.WSMessage:
		return AppendWSMessage(make([]byte, 0, SizeWSMessage(p)), p), nil
	case *scenario.Annotation:
		return AppendAnnotation(make([]byte, 0, SizeAnnotation(p)), p), nil
	case *scenario.UserProfile:
		return AppendUserProfile(make([]byte, 0, SizeUserProfile(p)), p), nil
	}
	if n, ok := sizeAnnot(v); ok {
		out, _ := appendAnnot(make([]byte, 0, n), v)
		return out, nil
	}
	return nil, fmt.Errorf("wire: no encoder for %T", v)
}

// Unmarshal decodes data into v, a pointer to one of the five seed types,
// with the default DecMode.
func Unmarshal(data []byte, v any) error { return DecMode{}.Unmarshal(data, v) }

// Unmarshal decodes data into v, a pointer to one of the five seed types
// or an annotation workload type.
// Errors are *DecodeError, or a plain error for an unsupported v.
func (m DecMode) Unmarshal(data []byte, v any) error {
	switch p := v.(type) {
	case *scenario.SSEEvent:
		return m.UnmarshalSSEEvent(data, p)
	case *scenario.UserEvent:
		return m.UnmarshalUserEvent(data, p)
	case *scenario.WSMessage:
		return m.UnmarshalWSMessage(data, p)
	case *scenario.Annotation:
		return m.UnmarshalAnnotation(data, p)
	case *scenario.UserProfile:
		return m.UnmarshalUserProfile(data, p)
	}
	if err, ok := m.unmarshalAnnot(data, v); ok {
		return err
	}
	return fmt.Errorf("wire: no decoder for %T", v)
}

// Codecs returns a new instance of each codec this package ships, in
// report order (codec/all holds every shipped codec, codec/defaults the
// default set).
func Codecs() []codec.Codec { return []codec.Codec{New(), NewReuse(), NewLazy()} }
