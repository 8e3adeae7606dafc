// Package codec defines what serbench measures: a Codec is one serialization
// library configured one way, identified by a stable ID (see docs/reference.md, "Codecs").
//
// A Codec is bound once to the Go type of a scenario value, giving a Binding
// whose Marshal and Unmarshal the runner times. Codecs that work on their own
// generated types (protobuf, FlatBuffers, ...) also implement Converter on the
// Binding, so that converting the scenario value to and from the generated type
// happens outside the timed loop and is measured on its own.
package codec

import (
	"errors"
	"fmt"
	"reflect"
)

// Kind says how a codec maps Go values to bytes.
type Kind string

// The kinds of docs/reference.md, "Codecs", plus Reference for rows that are not codecs but
// floors to compare against (copying the encoded bytes, say).
const (
	Reflect   Kind = "reflect"   // runtime reflection over the Go type
	JIT       Kind = "jit"       // reflection plus just-in-time compiled code (sonic)
	Codegen   Kind = "codegen"   // code generated ahead of time from a schema or the Go types
	Manual    Kind = "manual"    // code written by hand
	Reference Kind = "reference" // not a codec: a physical floor such as memmove
	Parser    Kind = "parser"    // parses into the library's own document tree, no Go values (Info.ParseOnly)
)

// Info describes a codec for `serbench list` and for reports.
type Info struct {
	// ID is the stable ID of docs/reference.md, "Codecs", with a "/variant" suffix for
	// variants such as "sonic/fastest".
	ID string `json:"id"`
	// Module is the Go module path of the library ("std" for the standard library).
	Module string `json:"module"`
	// Version is the module version linked into this binary, from the build
	// info; the Go version for the standard library; "" when unknown.
	Version string `json:"version"`
	// Format is the wire format: "JSON", "MessagePack", "CBOR", "gob", ...
	Format string `json:"format"`
	// Kind says how the codec works.
	Kind Kind `json:"kind"`
	// Binary is true for binary formats and false for text formats.
	Binary bool `json:"binary"`
	// Options states, in words, every non-default option in effect and why.
	Options string `json:"options"`
	// ReusesOutput is true when the Binding may own what it returns, against
	// the rules of Binding.Marshal and Binding.Unmarshal: Marshal may return
	// a buffer that the Binding overwrites on the next Marshal (wire/reuse,
	// memmove), and Unmarshal may return a value (with its strings, slices
	// and maps) that the Binding overwrites on the next Unmarshal
	// (wire/reuse, wire/lazy). A caller that keeps either past the next call
	// of the same method on the same Binding must copy it; comparing,
	// converting (FromNative) or re-encoding it before that call is safe.
	ReusesOutput bool `json:"reuses_output,omitempty"`
	// ZeroCopy is true when Unmarshal returns a view that reads the bytes
	// in place instead of building a Go value (flatbuffers/lazy,
	// wire/lazy): its unmarshal row is not comparable with other codecs',
	// and recommendations leave it out.
	ZeroCopy bool `json:"zero_copy,omitempty"`
	// API says what Unmarshal decodes into: APITyped, APIAny or APITree.
	API API `json:"api,omitempty"`
	// Unsafe is true when the library's own module (Module; for serbench's
	// own codecs, the adapter's package) imports package unsafe in a
	// package this build links: its strings or slices may alias memory it
	// does not own, and its safety rests on its authors' care rather than
	// the compiler's checks. Generated-code libraries are judged by their
	// own module, not by the runtime module their code calls. codec/all's
	// tests check the flag against the build's import graph.
	Unsafe bool `json:"unsafe,omitempty"`
	// Status warns about the library's upkeep or a pinned version, in
	// words ("unmaintained upstream since 2022 ..."); "" for a library
	// maintained and used at its current release.
	Status string `json:"status,omitempty"`
	// LastRelease is the date, "YYYY-MM-DD" (UTC), of the newest release
	// of Module that the Go module proxy served on UpkeepChecked (for a
	// module without tagged releases, its newest pseudo-version, a
	// commit): the linked version's date (its .info file, `go list -m
	// -f {{.Time}} MODULE`), or, for a module pinned to an older release
	// (Status says why), the newest one's (`go list -m MODULE@latest`).
	// "" for the standard library and serbench's own codecs. codec/all's
	// tests check that it is not older than the linked version.
	LastRelease string `json:"last_release,omitempty"`
	// Archived is true when upstream archived the library's repository or
	// declared the library deprecated (Status gives the source).
	Archived bool `json:"archived,omitempty"`
	// Warning states, in words, a problem of this build that makes the
	// codec's rows measure something other than its name says (sonic
	// linked at a release that does not support the running Go falls back
	// to encoding/json: codec/sonic.CheckGo); "" when there is none.
	// serbench run repeats it as a run warning and serbench list prints it.
	Warning string `json:"warning,omitempty"`
	// Time says, in words, what the codec keeps of a time.Time: its
	// precision and whether the zone or offset survives ("ns, offset kept",
	// "ns, UTC forced", "µs, UTC forced", "no time.Time: Unix ns as int64");
	// "" when not yet stated.
	Time string `json:"time,omitempty"`
	// ParseOnly is true for a JSON parser that decodes into the library's
	// own document tree (DOM), not into a Go value, and has no marshal of Go
	// values (fastjson, simdjson): its Binding's Marshal only makes the JSON
	// input (the value encoded by encoding/json, not timed), its Unmarshal
	// parses, and its Binding implements DOM for the round-trip check. Its
	// rows carry the op "parse", never "marshal" or "unmarshal", so they are
	// never ranked against a codec's unmarshal. Kind is then Parser and
	// API APITree, and only then (codec/all's TestAPI holds the shipped
	// codecs to it).
	ParseOnly bool `json:"parse_only,omitempty"`
	// Engine names the implementation that runs on this platform, for a
	// library that switches implementation by architecture, toolchain or
	// environment (sonic: "encoder jit, decoder jit" on amd64, "encoder vm,
	// decoder optdec" on arm64, "encoding/json fallback" elsewhere); "" for
	// a library with one implementation.
	Engine string `json:"engine,omitempty"`
	// Default is true for codecs in the default set, the ones `serbench
	// run` measures when -codecs is not given (the most used libraries plus
	// wire and memmove); the rest run with -codecs all or a named group.
	Default bool `json:"default,omitempty"`
	// AliasesInput is measured, never stated (no adapter sets it): true
	// when the decoded value of some scenario shared the input's memory
	// (the alias probe, AliasesInput; results.Row.AliasesInput per cell),
	// false when every probed scenario's value came through unchanged, nil
	// where nothing was probed. serbench run fills it in from its cells,
	// serbench list (json and markdown) from the seed scenarios. Unlike
	// Unsafe, a fact about the library's source, this is what a caller
	// can observe: whether reusing the read buffer changes decoded values.
	AliasesInput *bool `json:"aliases_input,omitempty"`
}

// API says what a codec's Unmarshal decodes into, as the library's API
// offers it (Info.API).
type API string

// The API kinds.
const (
	APITyped API = "typed" // the caller's own Go type (the scenario's struct), or one generated for it
	APIAny   API = "any"   // the library's generic values (map[string]any, []any); the adapter converts
	APITree  API = "tree"  // the library's own document tree, no Go value (Info.ParseOnly)
)

// Codec is one library configured one way.
type Codec interface {
	// Info describes the codec. It is constant for the life of the codec.
	Info() Info
	// Bind prepares the codec for values of the Go type of sample, which is a
	// non-nil pointer to a scenario value (*scenario.SSEEvent, *any, ...).
	// It returns an error wrapping ErrUnsupported when the codec cannot handle
	// that type (no schema for it, say).
	Bind(sample any) (Binding, error)
}

// Binding is a codec bound to one Go type. It must be safe to call from one
// goroutine at a time; Bind again for another goroutine.
//
// Panics: Marshal and Unmarshal report every failure as an error and do
// not panic, whatever v or data hold (data may be hostile). An adapter
// whose library can panic (on malformed input, or on a type it does not
// expect) defers RecoverEncode in Marshal and RecoverDecode in Unmarshal,
// so that the panic becomes that codec's error, "<id>: decoding N bytes
// panicked: ...". The same holds for Bind, Converter and DOM methods. The
// callers that feed a Binding values or bytes they do not control
// (serbench.Check and Benchmark, conformance, evolve) still recover as a
// second line and report a panic as the codec's finding; bench.Matrix does
// not (there a panic is a bug of the adapter). What recover cannot
// catch (a stack overflow, running out of memory, a panic on another
// goroutine) is what package hostile's child processes are for.
type Binding interface {
	// Marshal encodes v and returns new bytes that the caller owns (unless
	// the codec's Info.ReusesOutput says otherwise). v is the
	// scenario value (a pointer), or, when the Binding is a Converter, the
	// value returned by ToNative.
	Marshal(v any) ([]byte, error)
	// Unmarshal decodes data into a new value of the bound type and returns a
	// pointer to it (or, for a Converter, a value FromNative accepts). When
	// the codec's Info.ReusesOutput is true the value is the Binding's own,
	// valid until the next Unmarshal. A value that reads data in place (the
	// lazy variants: flatbuffers/lazy, wire/lazy) is valid only while data
	// stays unchanged.
	Unmarshal(data []byte) (any, error)
}

// Converter is implemented by Bindings whose codec works on its own types.
// The runner calls ToNative once before timing Marshal and FromNative on the
// result of Unmarshal before comparing it with the original; both are timed
// as the "convert" operation, never inside marshal or unmarshal.
type Converter interface {
	ToNative(v any) (any, error)
	FromNative(v any) (any, error)
}

// DOM is implemented by the Bindings of parse-only codecs (Info.ParseOnly).
type DOM interface {
	// Tree walks doc, a result of the Binding's Unmarshal, and returns it as
	// a JSON tree of the shape JSONTree returns: map[string]any, []any,
	// string, bool, nil, and numbers as int64, uint64 or float64
	// (ParseJSONNumber). The runner compares it with JSONTree of the input.
	Tree(doc any) (any, error)
}

// ErrUnsupported is wrapped by Bind when a codec cannot handle a type.
var ErrUnsupported = errors.New("not supported")

// Unsupported returns an error wrapping ErrUnsupported that gives the reason,
// for example Unsupported("protobuf", "no schema for %T", v).
func Unsupported(id, format string, args ...any) error {
	return fmt.Errorf("%s: %w: %s", id, ErrUnsupported, fmt.Sprintf(format, args...))
}

// Verifier is implemented by Bindings whose Unmarshal does not itself bound
// what a hostile input may expand to (the eager "flatbuffers" codec, which
// unpacks without a verifier). Verify reads data without allocating for
// what it claims and returns an error where Unmarshal could expand it past
// the codec's documented bound; callers that decode untrusted bytes (serve's
// /api, serbench hostile, the fuzz targets) call it first, through
// UnmarshalUntrusted. It is not part of Unmarshal, so the timed Unmarshal
// costs what the library's own decode costs.
type Verifier interface {
	Verify(data []byte) error
}

// UnmarshalUntrusted is b.Unmarshal(data) preceded by b.Verify(data) when b
// is a Verifier: the decode of bytes from outside.
func UnmarshalUntrusted(b Binding, data []byte) (any, error) {
	if v, ok := b.(Verifier); ok {
		if err := v.Verify(data); err != nil {
			return nil, err
		}
	}
	return b.Unmarshal(data)
}

// Preambler is implemented by Bindings whose messages rely on state that
// the two ends of one connection share, such as gob/stream's type
// descriptors. A sender sends Preamble once at the start of each
// connection, before any message; the receiver's Binding reads it with
// ReadPreamble before its first Unmarshal. A Binding reads one preamble in
// its life: a receiver that reconnects binds anew.
type Preambler interface {
	// Preamble returns the bytes to send first. Calling it is not safe
	// concurrently with Marshal.
	Preamble() ([]byte, error)
	// ReadPreamble gives the Binding what a sender's Preamble returned.
	ReadPreamble(p []byte) error
}

// NewBinder is a Codec whose Bindings can make the values Unmarshal decodes
// into with a constructor the caller gives, rather than with reflect.New.
// Codecs that decode into the caller's type by reflection (Funcs, ...) are
// NewBinders; codecs with generated code make their values with new(T)
// already.
type NewBinder interface {
	Codec
	// BindNew is Bind whose Binding's Unmarshal calls newValue for each
	// value it decodes into. newValue returns a new zero value of the
	// sample's type, a non-nil pointer (new(T) for a sample of type *T);
	// nil means reflect.New.
	BindNew(sample any, newValue func() any) (Binding, error)
}

// BindNew binds c to sample. When c is a NewBinder and newValue is not nil,
// its Bindings make each value they decode into with newValue (see
// NewBinder), so that the timed Unmarshal costs what a plain loop of
// json.Unmarshal(data, new(T)) costs: reflect.New(t).Interface() took
// 21.5-22.7 ns against 12.8-15.4 ns for new(T) on a small struct, and
// encoding/json's unmarshal of the ws-message scenario read 17 ns faster
// and go-json's 13 ns faster with newValue (docs/findings/noisy.md). An
// error when newValue returns a value of another type than sample's.
func BindNew(c Codec, sample any, newValue func() any) (Binding, error) {
	nb, ok := c.(NewBinder)
	if !ok || newValue == nil {
		return c.Bind(sample)
	}
	if got, want := reflect.TypeOf(newValue()), reflect.TypeOf(sample); got != want {
		return nil, fmt.Errorf("%s: the constructor makes %v values, the sample is a %v", c.Info().ID, got, want)
	}
	return nb.BindNew(sample, newValue)
}

// NewValue returns newValue, or when it is nil a constructor of new zero
// values of type elem by reflect.New: each call returns a non-nil pointer to
// a new zero elem. NewBinders' Bindings keep its result.
func NewValue(elem reflect.Type, newValue func() any) func() any {
	if newValue != nil {
		return newValue
	}
	return func() any { return reflect.New(elem).Interface() }
}
