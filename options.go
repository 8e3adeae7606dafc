package serbench

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/defaults"
	"github.com/serbench/serbench/derive"
	"github.com/serbench/serbench/fidelity"
)

// Options configure Benchmark, Check and Fidelity. The zero value means the
// defaults: the default set of built-in codecs (as `serbench run` with no
// -codecs), none required, compared with fidelity.Diff.
type Options struct {
	// Registry holds the built-in codecs that Codecs picks from. Nil means
	// the default set, codec/defaults.Registry(): this package links only
	// those libraries. Every codec serbench ships is in
	// codec/all.Registry(), which links the others:
	//
	//	serbench.Options{Registry: all.Registry(), Codecs: []string{"all"}}
	Registry *codec.Registry
	// Codecs selects built-in codecs of Registry with the grammar of
	// `serbench run -codecs`, one name per element: codec IDs (those of
	// `serbench list`, such as "encoding/json" or "sonic/fastest") and
	// group names ("default", "all", "json", "msgpack", "cbor", "schema",
	// "binary"; "group:NAME" when a codec has the same ID), mixed, in the
	// order given; a codec named twice runs once (codec.Registry.Resolve,
	// the parser the CLI uses). Groups stand for Registry's codecs only
	// ("all" over the default Registry is the default set). Naming a
	// built-in codec that the default Registry lacks is an error that
	// names codec/all. Nil means the default set
	// (codec.Info.Default, the group "default") followed by the derived
	// codecs, DerivedCodecs; those run otherwise only when named by ID
	// ("protobuf/derived", "hyperpb/derived", "avro/derived"). An empty non-nil slice means
	// no built-in codec, only Extra. Unknown names are an error
	// listing the valid IDs and groups. Codecs in Extra always run.
	Codecs []string
	// Extra adds codecs of your own: codec.Funcs for a library with
	// Marshal and Unmarshal functions, Msgp, EasyJSON, Proto or ProtoDerived for code
	// generated onto your type. One whose ID equals a built-in ID replaces
	// that codec (the built-in generators cannot take your type anyway).
	Extra []codec.Codec
	// Require lists codec IDs that must round-trip the value exactly:
	// Check and Benchmark fail when one of them cannot take the value or
	// loses data. Other codecs' findings are reported, never failures.
	Require []string
	// Compare returns nil when got, the value after a round trip, equals
	// want, the original, and otherwise an error naming the first
	// difference. Both are pointers to values of the benchmarked type.
	// Nil means fidelity.Diff (deep equality; time.Time by instant; a nil
	// and an empty slice or map differ).
	Compare func(want, got any) error
	// Skip names fields of your type that the schema codecs leave out:
	// the derived codecs (DerivedCodecs) and those generated from a
	// derived schema (ProtoDerived, VTProtoDerived, FlatBuffersDerived,
	// whose schema and conversion code `serbench init -skip` wrote
	// without them). It is for fields you cannot change, such as an
	// interface{} field of another module's struct, which would make
	// every schema codec n/a. Each is a path of field names from your
	// type, Go names or json names, joined by dots: "Account.Extensions"
	// (derive.Options.Skip says how paths are read). Those codecs'
	// round trip is compared with your value with the fields left out
	// set to zero, and each field is listed among their losses ("left out
	// by Options.Skip"); the reflection codecs (encoding/json, ...) keep
	// every field and are compared with your value as it is. A path that
	// names no field of your type is an error naming it and the fields
	// that exist there.
	Skip []string
	// LiveHeap is the GC condition Benchmark times under: the live heap in
	// bytes the process keeps while the sub-benchmarks run, raised with a
	// pointer-free ballast when the process's own is smaller (as `serbench
	// run -live-heap` and the loops of `serbench export -live-heap` do, so
	// the three can be compared). 0 adds no ballast. Range [0,
	// bench.MaxLiveHeap]; Check and Fidelity ignore it.
	LiveHeap int64
}

// resolved is Options validated: the codecs to run, in order.
type resolved struct {
	codecs   []codec.Codec
	required map[string]bool
	compare  func(want, got any) error
	// derive is what the derived codecs derive with; skipping are the
	// IDs of the codecs that leave out its Skip fields.
	derive   derive.Options
	skipping map[string]bool
}

// withDerive returns c deriving with r.derive when it is a codec
// generated from a derived schema, c otherwise.
func (r *resolved) withDerive(c codec.Codec) codec.Codec {
	if s, ok := c.(skipper); ok {
		r.skipping[c.Info().ID] = true
		return s.withDerive(r.derive)
	}
	return c
}

// resolve validates o. Unknown IDs in Codecs or Require, duplicate IDs in
// Extra and an Extra codec with an empty ID are errors naming them.
func (o Options) resolve() (*resolved, error) {
	extra := map[string]codec.Codec{}
	for _, c := range o.Extra {
		if c == nil {
			return nil, fmt.Errorf("serbench: nil codec in Options.Extra")
		}
		id := c.Info().ID
		if id == "" {
			return nil, fmt.Errorf("serbench: codec %T in Options.Extra has an empty ID", c)
		}
		if _, dup := extra[id]; dup {
			return nil, fmt.Errorf("serbench: two codecs with ID %q in Options.Extra", id)
		}
		extra[id] = c
	}
	reg := o.Registry
	if reg == nil {
		reg = defaults.Registry()
	}
	do := derive.Options{Skip: o.Skip}
	var builtin []codec.Codec
	switch {
	case o.Codecs == nil:
		builtin = append(reg.Default(), derivedCodecs(do)...)
	case len(o.Codecs) > 0:
		var names []string
		var derived []codec.Codec
		for _, n := range o.Codecs {
			if c := derivedCodec(n, do); c != nil {
				derived = append(derived, c)
			} else {
				names = append(names, n)
			}
		}
		if len(names) > 0 {
			var err error
			if builtin, err = reg.Resolve(names); err != nil {
				return nil, fmt.Errorf("serbench: Options.Codecs: %w", err)
			}
		}
		builtin = append(builtin, derived...)
	}
	p := &resolved{required: map[string]bool{}, compare: o.Compare, derive: do, skipping: map[string]bool{}}
	if p.compare == nil {
		p.compare = fidelity.Diff
	}
	seen := map[string]bool{}
	for _, c := range builtin {
		id := c.Info().ID
		if seen[id] {
			continue
		}
		seen[id] = true
		if x, ok := extra[id]; ok {
			c = x
		} else if derivedCodec(id, do) != nil {
			p.skipping[id] = true
		}
		p.codecs = append(p.codecs, p.withDerive(c))
	}
	for _, c := range o.Extra {
		if id := c.Info().ID; !seen[id] {
			seen[id] = true
			p.codecs = append(p.codecs, p.withDerive(c))
		}
	}
	if o.LiveHeap < 0 || o.LiveHeap > bench.MaxLiveHeap {
		return nil, fmt.Errorf("serbench: invalid Options.LiveHeap %d (range is [0, %d])", o.LiveHeap, int64(bench.MaxLiveHeap))
	}
	var unknown []string
	for _, id := range o.Require {
		if !seen[id] {
			unknown = append(unknown, fmt.Sprintf("%q", id))
		}
		p.required[id] = true
	}
	if len(unknown) > 0 {
		ids := slices.Sorted(maps.Keys(seen))
		return nil, fmt.Errorf("serbench: Options.Require names %s, not among the codecs run (%s)", strings.Join(unknown, ", "), strings.Join(ids, ", "))
	}
	return p, nil
}
