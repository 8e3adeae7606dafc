package codec

import (
	"fmt"
	"reflect"
)

// MarshalFunc encodes v, a pointer to a value, into new bytes.
type MarshalFunc func(v any) ([]byte, error)

// UnmarshalFunc decodes data into v, a pointer to a zero value.
type UnmarshalFunc func(data []byte, v any) error

// Funcs is a Codec built from a pair of functions with the signatures of
// encoding/json's Marshal and Unmarshal, as most reflection-based libraries
// offer. It binds to any pointer type.
type Funcs struct {
	Meta      Info
	Marshal   MarshalFunc
	Unmarshal UnmarshalFunc
	// Code, when set, is the same pair of calls as Go source, for
	// `serbench export` (Exporter); the adapter of the library keeps it
	// next to the functions so the two cannot drift apart.
	Code *GoCode
	// Any, when set, drives the library on untyped values for conformance
	// (UntypedDriver).
	Any *Untyped
	// FieldsBy, when set, says what the library matches struct fields by
	// when one version of a type reads another's bytes ("json tags, by
	// name", "Go field names"); package evolve runs the codecs that state
	// it (FieldMatcher).
	FieldsBy string
}

var _ Codec = Funcs{}

// Info implements Codec.
func (f Funcs) Info() Info { return f.Meta }

// Bind implements Codec. sample must be a non-nil pointer.
func (f Funcs) Bind(sample any) (Binding, error) { return f.BindNew(sample, nil) }

// BindNew implements NewBinder: Unmarshal decodes into newValue's values.
func (f Funcs) BindNew(sample any, newValue func() any) (Binding, error) {
	t := reflect.TypeOf(sample)
	if t == nil || t.Kind() != reflect.Pointer || reflect.ValueOf(sample).IsNil() {
		return nil, fmt.Errorf("%s: Bind needs a non-nil pointer, got %T", f.Meta.ID, sample)
	}
	return &funcBinding{newValue: NewValue(t.Elem(), newValue), m: f.Marshal, u: f.Unmarshal}, nil
}

type funcBinding struct {
	newValue func() any
	m        MarshalFunc
	u        UnmarshalFunc
}

func (b *funcBinding) Marshal(v any) ([]byte, error) { return b.m(v) }

func (b *funcBinding) Unmarshal(data []byte) (any, error) {
	p := b.newValue()
	if err := b.u(data, p); err != nil {
		return nil, err
	}
	return p, nil
}

// GoCode is how a standalone Go program calls a codec's library the way
// its serbench adapter does, with the same options: what `serbench export`
// writes for the codec (package export).
type GoCode struct {
	// Imports are the import specs the calls need: "path" or "alias path".
	Imports []string
	// Setup holds package-level declarations the calls use; "" if none.
	Setup string
	// Marshal is a Go expression of type func(any) ([]byte, error).
	Marshal string
	// Unmarshal is a Go expression of type func([]byte, any) error.
	Unmarshal string
}

// Exporter is implemented by codecs that package export can write as
// plain Go calls. ok is false when the codec cannot be (Funcs without
// Code, say).
type Exporter interface {
	GoCode() (code GoCode, ok bool)
}

var _ Exporter = Funcs{}

// GoCode implements Exporter: f.Code, when set.
func (f Funcs) GoCode() (GoCode, bool) {
	if f.Code == nil {
		return GoCode{}, false
	}
	return *f.Code, true
}

// FieldMatcher is implemented by reflection codecs that state what they
// match struct fields by across versions of a type (package evolve's
// rows); "" when the codec states nothing.
type FieldMatcher interface {
	MatchesFieldsBy() string
}

var _ FieldMatcher = Funcs{}

// MatchesFieldsBy implements FieldMatcher: f.FieldsBy.
func (f Funcs) MatchesFieldsBy() string { return f.FieldsBy }
