// Package simdjson adapts github.com/minio/simdjson-go, a port of simdjson
// that parses JSON with AVX2 and CLMUL instructions into its own tape
// (*simdjson.ParsedJson), with no decoding into Go values and no marshal
// of Go values: a parse-only codec (codec.Info.ParseOnly).
package simdjson

import (
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/minio/simdjson-go"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "simdjson"

const module = "github.com/minio/simdjson-go"

// New returns the simdjson codec: simdjson.Parse with the library's default
// options (strings copied out of the input), the previous tape reused.
func New() codec.Codec { return simdCodec{} }

type simdCodec struct{}

var _ codec.Codec = simdCodec{}

func (simdCodec) Info() codec.Info {
	return codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
		LastRelease: "2023-03-11", // v0.4.5, the linked and newest version: go list -m -f {{.Time}} github.com/minio/simdjson-go

		API:    codec.APITree,
		Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
		Format: "JSON", Kind: codec.Parser, ParseOnly: true, ReusesOutput: true,
		Options: "parse only: simdjson.Parse into a *ParsedJson tape, the Binding's previous tape reused (valid until the next parse); " +
			"default options (WithCopyStrings true: strings copied out of the input); needs AVX2 and CLMUL; " +
			"top-level objects and arrays only; no marshal of Go values (the input is encoding/json's)",
		Time: "no time.Time: the tape holds the RFC 3339 text as a string"}
}

// Supported reports whether simdjson-go runs here: on amd64 with AVX2 and
// CLMUL. Elsewhere Bind returns an error wrapping codec.ErrUnsupported.
func Supported() bool { return simdjson.SupportedCPU() }

// Bind returns an error wrapping codec.ErrUnsupported off amd64, on a CPU without
// AVX2 and CLMUL (simdjson.SupportedCPU), and otherwise accepts any value
// encoding/json can encode into an object or array: the parse input is its
// encoding.
func (simdCodec) Bind(sample any) (codec.Binding, error) {
	if runtime.GOARCH != "amd64" {
		return nil, codec.Unsupported(ID, "simdjson-go parses with amd64 assembly only (simdjson_other.go: SupportedCPU is false on "+runtime.GOARCH+")")
	}
	if !simdjson.SupportedCPU() {
		return nil, codec.Unsupported(ID, "this CPU lacks AVX2 or CLMUL, which simdjson-go requires")
	}
	return &binding{}, nil
}

type binding struct{ pj *simdjson.ParsedJson }

var (
	_ codec.Binding = (*binding)(nil)
	_ codec.DOM     = (*binding)(nil)
)

// Marshal returns v encoded by encoding/json: the input of the parse row,
// not a simdjson operation.
func (*binding) Marshal(v any) ([]byte, error) { return json.Marshal(v) }

// Unmarshal parses data and returns the *simdjson.ParsedJson, owned by the
// Binding and valid until its next Unmarshal.
func (b *binding) Unmarshal(data []byte) (any, error) {
	pj, err := simdjson.Parse(data, b.pj)
	if err != nil {
		return nil, fmt.Errorf("simdjson: %w", err)
	}
	b.pj = pj
	return pj, nil
}

// Tree walks the tape that Unmarshal returned with the library's own
// Iter.Interface (numbers as int64, uint64 or float64, as the tape holds
// them). It is the round-trip check's walker, never timed; its time grows
// much faster than the depth of nesting (about 1 s for 1,000 nested arrays
// on the 2-core machine of docs/findings), so it is not for hostile input.
func (*binding) Tree(doc any) (any, error) {
	pj, ok := doc.(*simdjson.ParsedJson)
	if !ok {
		return nil, fmt.Errorf("simdjson: Tree of %T, want *simdjson.ParsedJson", doc)
	}
	it := pj.Iter()
	v, err := it.Interface()
	if err != nil {
		return nil, fmt.Errorf("simdjson: %w", err)
	}
	roots, ok := v.([]any)
	if !ok || len(roots) != 1 {
		return nil, fmt.Errorf("simdjson: tape holds %T, want one root document", v)
	}
	return roots[0], nil
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
