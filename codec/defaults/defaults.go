// Package defaults links the default set of codecs (codec.Info.Default, the
// group "default"; the codecs `serbench run` times without -codecs) into the
// program, as a database/sql driver links itself: import it for its side
// effect and use codec.Linked.
//
//	import _ "github.com/serbench/serbench/codec/defaults"
//
// The root package serbench imports it, so a go test user links these
// libraries and no other codec's; package codec/all links the rest.
package defaults

import (
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/cbor"
	"github.com/serbench/serbench/codec/easyjson"
	"github.com/serbench/serbench/codec/flatbuffers"
	"github.com/serbench/serbench/codec/gob"
	"github.com/serbench/serbench/codec/gojson"
	"github.com/serbench/serbench/codec/jsoniter"
	"github.com/serbench/serbench/codec/jsonv2"
	"github.com/serbench/serbench/codec/memmove"
	"github.com/serbench/serbench/codec/msgp"
	"github.com/serbench/serbench/codec/msgpack"
	"github.com/serbench/serbench/codec/protobuf"
	"github.com/serbench/serbench/codec/sonic"
	"github.com/serbench/serbench/codec/stdjson"
	"github.com/serbench/serbench/codec/stdjsonv2"
	"github.com/serbench/serbench/codec/vtprotobuf"
	"github.com/serbench/serbench/codec/wire"
)

func init() {
	for _, newCodec := range []func() codec.Codec{
		stdjson.New, jsonv2.New, jsoniter.New, gojson.New, sonic.New, easyjson.New,
		msgpack.New, msgp.New, cbor.New, gob.New,
		protobuf.New, vtprotobuf.New, flatbuffers.New,
		wire.New, wire.NewReuse, memmove.New,
	} {
		codec.Register(newCodec)
	}
	for _, newCodec := range stdjsonv2.Constructors() { // none before Go 1.27
		codec.Register(newCodec)
	}
}
