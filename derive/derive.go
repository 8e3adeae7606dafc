// Package derive writes schemas for a Go struct type, found by reflection,
// so that a user's own type can go through schema codecs with no schema
// written by hand: a Protocol Buffers descriptor and its .proto text
// (proto3), an Apache Avro schema (.avsc JSON) and a FlatBuffers schema
// (.fbs), plus the codecs serbench times on them without a code generator
// (NewProtoCodec: dynamicpb; NewAvroCodec: hamba/avro).
//
// The mapping, the same for every format where the format allows it:
//
//   - One message (record, table) per struct type, named after the Go type
//     (an anonymous struct after the field that holds it), fields numbered
//     1, 2, ... in declaration order.
//   - Field names: the name of the `json` tag when there is one, else the
//     Go name (snake_case in .proto and .fbs); `json:"-"` leaves a field
//     out (and so does Options.Skip). Embedded structs without a json name
//     are flattened into the struct that embeds them, as encoding/json
//     does; one with a json name (`json:"metadata"`) is one field, nested,
//     as encoding/json nests it. A time wrapper (a struct whose one field
//     is an embedded time.Time) is a time.
//   - Each Go kind maps to the format's nearest type; pointers are presence
//     (proto3 optional, an Avro union with null, a FlatBuffers optional
//     scalar), a pointer to a slice too, as a struct field (a wrapper
//     message, a union with null, a vector that may be absent). See the
//     table in docs/your-type.md.
//
// Every mapping that can change a Go value on the way back (a time's zone,
// nil versus empty, a width, a map's key type) is a Loss, listed in
// Schema.Losses and written as a comment in the schema text (an Avro "doc"
// attribute, JSON having no comments). A field no format can take (an
// interface, a channel, a func, an unexported field, ...) or that one
// format cannot take (a map with float keys in protobuf, a list of lists in
// FlatBuffers) is a FieldError: Derive returns an *Error listing every one,
// and the other formats are unaffected.
//
// The package never prints; it reads only the reflect.Type it is given.
package derive

import (
	"errors"
	"fmt"
	"path"
	"reflect"
	"strings"
)

// Format is a schema language.
type Format string

// The formats Derive writes.
const (
	Proto       Format = "proto" // Protocol Buffers, proto3 syntax (.proto)
	Avro        Format = "avsc"  // Apache Avro schema, JSON (.avsc)
	FlatBuffers Format = "fbs"   // FlatBuffers schema (.fbs)
)

// Formats are the formats in the order serbench lists them.
var Formats = []Format{Proto, Avro, FlatBuffers}

// Loss is one mapping that can change a value on its way back to Go.
type Loss struct {
	// Path locates the field from the root type: ".Created",
	// ".Lines[].Price", ".Meta{}" (a map's values), ".Meta{key}".
	Path string
	// GoType is the Go type at Path, as reflect prints it.
	GoType string
	// Format is the schema language.
	Format Format
	// Type is the format's type at Path ("google.protobuf.Timestamp").
	Type string
	// Lost says what does not come back ("time zone and monotonic
	// reading; the instant is kept").
	Lost string
}

// String returns `.Created (time.Time as google.protobuf.Timestamp): time zone ...`.
func (l Loss) String() string {
	return fmt.Sprintf("%s (%s as %s): %s", l.Path, l.GoType, l.Type, l.Lost)
}

// Schema is a derived schema.
type Schema struct {
	// Format is the schema language.
	Format Format
	// Type is the Go type the schema was derived from.
	Type reflect.Type
	// Name is the root message's (record's, table's) name.
	Name string
	// Text is the schema file's content, losses included as comments.
	Text string
	// Losses are the lossy mappings, in field order.
	Losses []Loss
}

// Error is Derive's error for a type with fields the format cannot take.
type Error struct {
	Format Format
	Type   reflect.Type
	// Fields are the fields at fault, one per field, in field order.
	Fields []FieldError
}

// Error returns one line per field:
//
//	derive: proto: shop.Order: .Notify (chan string): a channel carries ...
func (e *Error) Error() string {
	lines := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		lines[i] = fmt.Sprintf("derive: %s: %s: %s", e.Format, e.Type, f)
	}
	return strings.Join(lines, "\n")
}

// ErrUnknownFormat is wrapped by Derive's error for a format it does not
// write.
var ErrUnknownFormat = errors.New("derive: unknown format")

// Derive returns the schema of struct type t (or a pointer to one) in
// format f. Errors: t is not a struct (a plain error), a field f cannot
// take (*Error), an unknown format (wrapping ErrUnknownFormat).
func Derive(t reflect.Type, f Format) (*Schema, error) {
	return Options{}.Derive(t, f)
}

// ParseFormat returns the Format named s ("proto", "avsc" or "fbs").
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("%w %q (want proto, avsc or fbs)", ErrUnknownFormat, s)
}

// mapper is what the three formats share: the model, and the losses and
// errors of one format.
type mapper struct {
	format Format
	root   *msg
	b      *builder
	losses []Loss
	errs   []FieldError
	// wrappers are the proto wrapper messages still to write; wrapName
	// names the one of each wrapped list or map type.
	wrappers []wrapper
	wrapName map[*typ]string
}

func newMapper(t reflect.Type, f Format, o Options) (*mapper, error) {
	root, b, err := build(t, o)
	if err != nil {
		return nil, err
	}
	m := &mapper{format: f, root: root, b: b, errs: append([]FieldError(nil), b.errs...)}
	for _, s := range b.skipped {
		m.losses = append(m.losses, Loss{Path: s.path, GoType: s.goT.String(), Format: f, Type: "(left out)", Lost: lostSkipped})
	}
	return m, nil
}

func (m *mapper) lose(path string, t *typ, formatType, lost string) string {
	m.losses = append(m.losses, Loss{Path: path, GoType: t.goT.String(), Format: m.format, Type: formatType, Lost: lost})
	return lost
}

// embeddedLoss records, once per embedded pointer, that f's embedded
// pointer loses nil, and returns the loss's text for f's comment.
func (m *mapper) embeddedLoss(f *field) string {
	for _, l := range m.losses {
		if l.Path == f.via && l.Lost == lostEmbeddedNil {
			return lostEmbeddedNil
		}
	}
	m.losses = append(m.losses, Loss{Path: f.via, GoType: f.viaT.String(), Format: m.format, Type: "flattened embedded pointer", Lost: lostEmbeddedNil})
	return lostEmbeddedNil
}

func (m *mapper) fail(path string, t *typ, format string, args ...any) {
	m.errs = append(m.errs, FieldError{Path: path, GoType: t.goT.String(), Reason: fmt.Sprintf(format, args...)})
}

// err returns the *Error of the fields at fault, nil when there are none.
func (m *mapper) err() error {
	if len(m.errs) == 0 {
		return nil
	}
	return &Error{Format: m.format, Type: m.root.goT, Fields: m.errs}
}

// name returns f's name in the proto or fbs schema, false after recording
// an error when another field of the message in seen (name to path) has
// it already.
func (m *mapper) name(f *field, seen map[string]string) (string, bool) {
	name := f.schemaName()
	if other, dup := seen[name]; dup {
		m.fail(f.path, f.typ, "its %s name %q is also that of %s", m.format, name, other)
		return "", false
	}
	seen[name] = f.path
	return name, true
}

// namespace is the schema's package or namespace: the last element of
// the Go package path as an identifier, "derived" for package main or
// none.
func (m *mapper) namespace() string {
	ns := ident(path.Base(m.root.goT.PkgPath()))
	if ns == "" || ns == "main" {
		return "derived"
	}
	return ns
}

// header is the comment that opens every schema text, with the fields
// Options.Skip left out.
func (m *mapper) header(prefix string) string {
	s := fmt.Sprintf("%sDerived by serbench from the Go type %s (package derive): fields in\n%sdeclaration order, names from json tags; lossy mappings are marked \"lossy:\".\n", prefix, m.root.goT, prefix)
	if len(m.b.skipped) > 0 {
		paths := make([]string, len(m.b.skipped))
		for i, f := range m.b.skipped {
			paths[i] = f.path
		}
		s += fmt.Sprintf("%sLeft out by Options.Skip: %s.\n", prefix, strings.Join(paths, ", "))
	}
	return s
}

// Shared loss texts.
const (
	lostNilEmpty    = "nil and empty are not told apart (both decode as nil)"
	lostNilElem     = "a nil element decodes as a pointer to a zero value"
	lostArrayLen    = "the array length is not in the schema (a longer list fails to decode)"
	lostEmbeddedNil = "a nil embedded pointer and one whose fields are all zero are not told apart"
	// A pointer to a slice keeps its presence; what it loses differs by
	// format.
	lostPtrSliceEmpty = "a pointer to an empty slice decodes as a pointer to a nil slice"
	lostPtrSliceNil   = "a pointer to a nil slice decodes as a pointer to an empty slice"
)

// LossAt returns the loss of s at the field where a difference was found,
// path being a value's path as fidelity.Mismatch writes it
// (".Lines[2].Price", `.Labels["dock"]`); ok is false when s has no loss
// at that field.
func (s *Schema) LossAt(path string) (Loss, bool) {
	p := normalizePath(path)
	for _, x := range s.Losses {
		if x.Path == p {
			return x, true
		}
	}
	return Loss{}, false
}

// normalizePath turns a value's path into a field's: indexes become "[]",
// map keys "{}".
func normalizePath(p string) string {
	var sb strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] != '[' {
			sb.WriteByte(p[i])
			continue
		}
		j := i + 1
		for j < len(p) && p[j] >= '0' && p[j] <= '9' {
			j++
		}
		if j < len(p) && p[j] == ']' && j > i+1 {
			sb.WriteString("[]")
			i = j
			continue
		}
		// A map key: skip to the bracket that closes it, past a quoted key.
		inQuote := false
		for j = i + 1; j < len(p); j++ {
			switch {
			case p[j] == '\\' && inQuote:
				j++
			case p[j] == '"':
				inQuote = !inQuote
			case p[j] == ']' && !inQuote:
				sb.WriteString("{}")
				i = j
				j = len(p) + 1
			}
		}
		if j == len(p) { // unterminated: keep the rest as it is
			sb.WriteString(p[i:])
			break
		}
	}
	return sb.String()
}
