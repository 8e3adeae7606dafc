// Package fastjson adapts github.com/valyala/fastjson, a JSON parser into
// its own document tree (*fastjson.Value) with no decoding into Go values
// and no marshal of Go values: a parse-only codec (codec.Info.ParseOnly).
package fastjson

import (
	"encoding/json"
	"fmt"

	"github.com/valyala/fastjson"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "fastjson"

const module = "github.com/valyala/fastjson"

// New returns the fastjson codec: one fastjson.Parser per Binding, reused
// by every Unmarshal (as the library's documentation advises).
func New() codec.Codec { return fastjsonCodec{} }

type fastjsonCodec struct{}

var _ codec.Codec = fastjsonCodec{}

func (fastjsonCodec) Info() codec.Info {
	return codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2022-12-29", // v1.6.4, the linked and newest version: go list -m -f {{.Time}} github.com/valyala/fastjson

		API:    codec.APITree,
		Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
		Format: "JSON", Kind: codec.Parser, ParseOnly: true, ReusesOutput: true,
		Options: "parse only: Parser.ParseBytes into *fastjson.Value, one Parser per Binding reused (the tree is valid until the next parse and reads the input in place); " +
			"strings and keys are unescaped lazily on first access, so the parse row leaves unescaping out; no marshal of Go values (the input is encoding/json's)",
		Time: "no time.Time: the tree holds the RFC 3339 text as a string"}
}

// Bind accepts any value encoding/json can encode: the parse input is its
// encoding.
func (fastjsonCodec) Bind(sample any) (codec.Binding, error) {
	return &binding{}, nil
}

type binding struct{ p fastjson.Parser }

var (
	_ codec.Binding = (*binding)(nil)
	_ codec.DOM     = (*binding)(nil)
)

// Marshal returns v encoded by encoding/json: the input of the parse row,
// not a fastjson operation.
func (*binding) Marshal(v any) ([]byte, error) { return json.Marshal(v) }

// Unmarshal parses data and returns the root *fastjson.Value, owned by the
// Binding and valid until its next Unmarshal while data stays unchanged.
func (b *binding) Unmarshal(data []byte) (any, error) {
	v, err := b.p.ParseBytes(data)
	if err != nil {
		return nil, fmt.Errorf("fastjson: %w", err)
	}
	return v, nil
}

// Tree walks the *fastjson.Value that Unmarshal returned.
func (*binding) Tree(doc any) (any, error) {
	v, ok := doc.(*fastjson.Value)
	if !ok {
		return nil, fmt.Errorf("fastjson: Tree of %T, want *fastjson.Value", doc)
	}
	return tree(v)
}

func tree(v *fastjson.Value) (any, error) {
	switch v.Type() {
	case fastjson.TypeObject:
		o, err := v.Object()
		if err != nil {
			return nil, fmt.Errorf("fastjson: %w", err)
		}
		m := make(map[string]any, o.Len())
		var werr error
		o.Visit(func(k []byte, e *fastjson.Value) {
			if werr != nil {
				return
			}
			x, err := tree(e)
			if err != nil {
				werr = err
				return
			}
			m[string(k)] = x // a duplicate key keeps the last value, as encoding/json does
		})
		return m, werr
	case fastjson.TypeArray:
		a, err := v.Array()
		if err != nil {
			return nil, fmt.Errorf("fastjson: %w", err)
		}
		s := make([]any, len(a))
		for i, e := range a {
			if s[i], err = tree(e); err != nil {
				return nil, err
			}
		}
		return s, nil
	case fastjson.TypeString:
		b, err := v.StringBytes()
		if err != nil {
			return nil, fmt.Errorf("fastjson: %w", err)
		}
		return string(b), nil
	case fastjson.TypeNumber:
		// String re-marshals the value: a number's own text.
		return codec.ParseJSONNumber(v.String())
	case fastjson.TypeTrue:
		return true, nil
	case fastjson.TypeFalse:
		return false, nil
	case fastjson.TypeNull:
		return nil, nil
	}
	return nil, fmt.Errorf("fastjson: unknown value type %v", v.Type())
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
