// Package msgpackgen adapts github.com/shamaton/msgpackgen, a MessagePack
// code generator whose output works on the scenario types themselves:
// resolver.msgpackgen.go holds encoders and decoders that msgpackgen
// generated for every struct of scenario/seeds.go (see the go:generate line
// below and TestGeneratedCodeIsCurrent). The library's Marshal and
// Unmarshal call them through a resolver that this package registers once,
// at init, for the whole process (msgpack.SetResolver: the library keeps one
// global resolver); no other package registers one.
//
// The codecs bind the five seed scenario types only: for any other type the
// library falls back to reflection (github.com/shamaton/msgpack/v2), which
// would measure another codec under this one's name. There is no
// conversion: Marshal and Unmarshal take the scenario values.
//
// "msgpackgen" writes structs as maps keyed by field name (the library's
// default); "msgpackgen/array" writes them as arrays in field order
// (MarshalAsArray/UnmarshalAsArray, which the library's README recommends
// for speed), which a reader must decode with the same struct layout.
package msgpackgen

//go:generate go tool msgpackgen -input-file ../../scenario/seeds.go -output-dir . -strict

import (
	"fmt"

	"github.com/shamaton/msgpackgen/msgpack"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

// IDs of the two codecs.
const (
	ID      = "msgpackgen"
	ArrayID = "msgpackgen/array"
)

const module = "github.com/shamaton/msgpackgen"

func init() { RegisterGeneratedResolver() }

type mpgCodec struct{ array bool }

// New returns the "msgpackgen" codec (structs as maps). Bind returns an
// error wrapping codec.ErrUnsupported for every type but the five seed
// scenarios.
func New() codec.Codec { return mpgCodec{} }

// NewArray returns the "msgpackgen/array" codec (structs as arrays). Bind
// returns an error wrapping codec.ErrUnsupported for every type but the five
// seed scenarios.
func NewArray() codec.Codec { return mpgCodec{array: true} }

// Info implements codec.Codec.
func (c mpgCodec) Info() codec.Info {
	i := codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2021-08-05", // v0.3.0, the linked and newest version: go list -m -f {{.Time}} github.com/shamaton/msgpackgen

		API:    codec.APITyped,
		Format: "MessagePack", Kind: codec.Codegen, Binary: true,
		Time:    "ns, offset lost: decoded in time.Local (MessagePack timestamp extension)",
		Options: "msgpackgen -strict on scenario/seeds.go; MarshalAsMap/UnmarshalAsMap (structs as maps keyed by field name, the default)",
		Status:  "pinned to v0.3.0 (2021): newer releases (v1.1.1) are not served by the module proxy"}
	if c.array {
		i.ID = ArrayID
		i.Options = "msgpackgen -strict on scenario/seeds.go; MarshalAsArray/UnmarshalAsArray (structs as arrays in field order)"
	}
	return i
}

// Bind implements codec.Codec.
func (c mpgCodec) Bind(sample any) (codec.Binding, error) {
	id := c.Info().ID
	switch sample.(type) {
	case *scenario.SSEEvent:
		return binding[scenario.SSEEvent]{id: id, array: c.array}, nil
	case *scenario.UserEvent:
		return binding[scenario.UserEvent]{id: id, array: c.array}, nil
	case *scenario.WSMessage:
		return binding[scenario.WSMessage]{id: id, array: c.array}, nil
	case *scenario.Annotation:
		return binding[scenario.Annotation]{id: id, array: c.array}, nil
	case *scenario.UserProfile:
		return binding[scenario.UserProfile]{id: id, array: c.array}, nil
	}
	return nil, codec.Unsupported(id, "no generated code for %T (msgpackgen ran on scenario/seeds.go only; other types would fall back to reflection)", sample)
}

// binding encodes *S with the generated code.
type binding[S any] struct {
	id    string
	array bool
}

// Marshal encodes v, a *S.
func (b binding[S]) Marshal(v any) ([]byte, error) {
	s, ok := v.(*S)
	if !ok || s == nil {
		return nil, fmt.Errorf("%s: Marshal wants a non-nil %T, got %T", b.id, (*S)(nil), v)
	}
	var data []byte
	var err error
	if b.array {
		data, err = msgpack.MarshalAsArray(s)
	} else {
		data, err = msgpack.MarshalAsMap(s)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: marshal %T: %w", b.id, s, err)
	}
	return data, nil
}

// Unmarshal decodes data into a new *S.
func (b binding[S]) Unmarshal(data []byte) (any, error) {
	s := new(S)
	var err error
	if b.array {
		err = msgpack.UnmarshalAsArray(data, s)
	} else {
		err = msgpack.UnmarshalAsMap(data, s)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: unmarshal %d bytes into %T: %w", b.id, len(data), s, err)
	}
	return s, nil
}

// Codecs returns a new instance of each codec this package ships, in
// report order (codec/all holds every shipped codec, codec/defaults the
// default set).
func Codecs() []codec.Codec { return []codec.Codec{New(), NewArray()} }
