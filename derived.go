package serbench

import (
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/derive"
)

// DerivedCodecs returns the codecs that need no code generator and no
// schema written by hand: each derives a schema from your type when it
// binds (package derive) and runs a library that works from a schema at
// run time.
//
//	protobuf/derived  google.golang.org/protobuf's dynamicpb on the derived
//	                  descriptor; the conversion between your value and the
//	                  dynamicpb.Message is timed as op=convert
//	avro/derived      github.com/hamba/avro/v2 on your value against the
//	                  derived .avsc schema
//	hyperpb/derived   buf.build/go/hyperpb's parser compiled from the derived
//	                  descriptor (amd64 and arm64); marshal is proto.Marshal
//	                  of the parsed message, convert goes through dynamicpb
//
// They run after the default set when Options.Codecs is nil, and
// otherwise when Options.Codecs names them by ID. Like every codec they
// round-trip your value first: one whose mapping loses something your
// value holds (a time zone, sub-microsecond time in Avro, nil versus
// empty) is timed with lossy=true; one that cannot take your value (an
// interface field, say, unless Options.Skip leaves it out, or a uint64 of
// 2^63 or more in Avro) is n/a with the reason, one line per field. `serbench schema` prints the schemas they use.
func DerivedCodecs() []codec.Codec {
	return derivedCodecs(derive.Options{})
}

// derivedCodecs are DerivedCodecs deriving with o.
func derivedCodecs(o derive.Options) []codec.Codec {
	return []codec.Codec{o.ProtoCodec(), o.HyperpbCodec(), o.AvroCodec()}
}

// skipper is a codec generated from a derived schema (ProtoDerived,
// VTProtoDerived, FlatBuffersDerived): it honours Options.Skip, which
// the schema it was generated from left out.
type skipper interface {
	withDerive(derive.Options) codec.Codec
}

// derivedCodec returns the derived codec with ID id deriving with o, nil
// for another ID.
func derivedCodec(id string, o derive.Options) codec.Codec {
	for _, c := range derivedCodecs(o) {
		if c.Info().ID == id {
			return c
		}
	}
	return nil
}
