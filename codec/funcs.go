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
}

var _ Codec = Funcs{}

// Info implements Codec.
func (f Funcs) Info() Info { return f.Meta }

// Bind implements Codec. sample must be a non-nil pointer.
func (f Funcs) Bind(sample any) (Binding, error) {
	t := reflect.TypeOf(sample)
	if t == nil || t.Kind() != reflect.Pointer || reflect.ValueOf(sample).IsNil() {
		return nil, fmt.Errorf("%s: Bind needs a non-nil pointer, got %T", f.Meta.ID, sample)
	}
	return &funcBinding{elem: t.Elem(), m: f.Marshal, u: f.Unmarshal}, nil
}

type funcBinding struct {
	elem reflect.Type
	m    MarshalFunc
	u    UnmarshalFunc
}

func (b *funcBinding) Marshal(v any) ([]byte, error) { return b.m(v) }

func (b *funcBinding) Unmarshal(data []byte) (any, error) {
	p := reflect.New(b.elem).Interface()
	if err := b.u(data, p); err != nil {
		return nil, err
	}
	return p, nil
}
