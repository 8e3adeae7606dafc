// Package pbcodec holds what the Protocol Buffers codecs (protobuf,
// vtprotobuf, gogoproto) share: New, which makes a codec.Converting over
// generated messages with the errors every one of them gives, and Convs, the
// conversions (codec.Conv) between the seed scenario types (package
// scenario) and protoc-gen-go's messages in package pb.
//
// The conversions themselves are generated from one template
// (internal/gencheck/convert.go.tmpl), once per package of generated types:
// convert_gen.go here for protoc-gen-go's types in package pb (Convs), used
// by protobuf and vtprotobuf; codec/gogoproto/convert_gen.go for
// gogofaster's.
// They copy field by field. Slices and maps of scalars are shared with the
// source value, not copied; nested messages are built anew. Because proto3
// decodes an empty repeated field or map as absent, a decoded value has nil
// where the original had an empty, non-nil slice or map. time.Time becomes a
// Timestamp holding its instant; a decoded time is in UTC.
package pbcodec

//go:generate go run github.com/serbench/serbench/internal/gencheck/generate protobuf-convert

import (
	"fmt"

	"github.com/serbench/serbench/codec"
)

// Options is the part of Info.Options that every Protocol Buffers codec
// shares: the schema and what it does to the data.
const Options = "schema/proto/serbench.proto (proto3); time.Time as google.protobuf.Timestamp " +
	"(instant kept, zone offset dropped); empty repeated fields and maps decode as nil"

// Missing is the reason a Protocol Buffers codec gives for a type the
// schema has no message for (codec.Converting.Missing).
const Missing = "no message for %T in schema/proto/serbench.proto"

// New returns the codec.Converting over generated messages that implement
// G (proto.Message, or the methods a generator adds), binding the types of
// convs. Its errors name the codec and the message type: "ID: marshal *T:
// ..." and "ID: unmarshal N bytes into *T: ...".
func New[G any](meta codec.Info, convs []codec.Conv, marshal func(G) ([]byte, error), unmarshal func(data []byte, m G) error) codec.Converting[G] {
	return codec.Converting[G]{
		Meta:    meta,
		Convs:   convs,
		Missing: Missing,
		Marshal: func(m G) ([]byte, error) {
			data, err := marshal(m)
			if err != nil {
				return nil, fmt.Errorf("%s: marshal %T: %w", meta.ID, m, err)
			}
			return data, nil
		},
		Unmarshal: func(data []byte, m G) error {
			if err := unmarshal(data, m); err != nil {
				return fmt.Errorf("%s: unmarshal %d bytes into %T: %w", meta.ID, len(data), m, err)
			}
			return nil
		},
	}
}
