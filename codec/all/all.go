// Package all links every codec serbench ships into the program, as a
// database/sql driver links itself (codec.Register): the CLI imports it, and
// a go test user who wants more than the default set that the root package
// links (package codec/defaults) imports it for its side effect:
//
//	import _ "github.com/serbench/serbench/codec/all"
//
// Codecs and Registry return what the program links, in catalog order
// (codec.Catalog): the encoding/json baseline, the other JSON libraries,
// then the binary formats.
package all

import (
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/alecthomas"
	"github.com/serbench/serbench/codec/avro"
	"github.com/serbench/serbench/codec/bebop"
	"github.com/serbench/serbench/codec/benc"
	"github.com/serbench/serbench/codec/bson"
	"github.com/serbench/serbench/codec/capnp"
	"github.com/serbench/serbench/codec/cbor"
	"github.com/serbench/serbench/codec/dedis"
	"github.com/serbench/serbench/codec/easyjson"
	"github.com/serbench/serbench/codec/enkodo"
	"github.com/serbench/serbench/codec/fastjson"
	"github.com/serbench/serbench/codec/ffjson"
	"github.com/serbench/serbench/codec/flatbuffers"
	"github.com/serbench/serbench/codec/goavro"
	"github.com/serbench/serbench/codec/gob"
	"github.com/serbench/serbench/codec/gogoproto"
	"github.com/serbench/serbench/codec/gojson"
	"github.com/serbench/serbench/codec/gotiny"
	"github.com/serbench/serbench/codec/hprose"
	"github.com/serbench/serbench/codec/hyperpb"
	"github.com/serbench/serbench/codec/ikeapack"
	"github.com/serbench/serbench/codec/jsoniter"
	"github.com/serbench/serbench/codec/jsonv2"
	"github.com/serbench/serbench/codec/kelindar"
	"github.com/serbench/serbench/codec/memmove"
	"github.com/serbench/serbench/codec/msgp"
	"github.com/serbench/serbench/codec/msgpack"
	"github.com/serbench/serbench/codec/msgpackgen"
	"github.com/serbench/serbench/codec/mus"
	"github.com/serbench/serbench/codec/protobuf"
	"github.com/serbench/serbench/codec/protobuf/opaque"
	"github.com/serbench/serbench/codec/segmentio"
	"github.com/serbench/serbench/codec/sereal"
	"github.com/serbench/serbench/codec/shamaton"
	"github.com/serbench/serbench/codec/simdjson"
	"github.com/serbench/serbench/codec/sonic"
	"github.com/serbench/serbench/codec/stdjson"
	"github.com/serbench/serbench/codec/stdjsonv2"
	"github.com/serbench/serbench/codec/thrift"
	"github.com/serbench/serbench/codec/twmbavro"
	"github.com/serbench/serbench/codec/ugorji"
	"github.com/serbench/serbench/codec/vtprotobuf"
	"github.com/serbench/serbench/codec/wire"
	"github.com/serbench/serbench/codec/xdr"
	"github.com/serbench/serbench/internal/childproc"
)

func init() {
	for _, newCodec := range []func() codec.Codec{
		stdjson.New, jsonv2.New, jsoniter.New, jsoniter.NewFastest, gojson.New,
		sonic.New, sonic.NewDefault, sonic.NewFastest, segmentio.New,
		easyjson.New, ffjson.New, fastjson.New, simdjson.New,
		msgpack.New, msgpack.NewArray, msgp.New, cbor.New, gob.New, gob.NewStream,
		protobuf.New, opaque.New, vtprotobuf.New, gogoproto.New, hyperpb.New,
		flatbuffers.New, flatbuffers.NewLazy, capnp.New, capnp.NewLazy,
		thrift.NewBinary, thrift.NewCompact, msgpackgen.New, msgpackgen.NewArray,
		bebop.New, benc.New, benc.NewPlain, mus.New, bson.New, avro.New, goavro.New, twmbavro.New,
		ugorji.NewMsgpack, ugorji.NewCBOR, ugorji.NewBinc, ugorji.NewSimple,
		shamaton.New, shamaton.NewArray, kelindar.New, xdr.New, sereal.New,
		dedis.New, ikeapack.New, alecthomas.New, hprose.New, enkodo.New,
		wire.New, wire.NewReuse, wire.NewLazy, memmove.New,
	} {
		codec.Register(newCodec)
	}
	for _, newCodec := range stdjsonv2.Constructors() { // none before Go 1.27
		codec.Register(newCodec)
	}
	if !childproc.RaceEnabled {
		codec.Register(gotiny.New)
	}
}

// Codecs returns a new instance of every codec, in catalog order
// (codec.Catalog). It holds encoding/json/v2 (codec/stdjsonv2) only where
// the toolchain builds it (Go 1.27, not GOEXPERIMENT=nojsonv2). In a binary built with -race it leaves out gotiny, whose
// unsafe code converts a uintptr taken from a slice header back to a
// pointer: the race build's pointer checks (checkptr) abort the process on
// its first Marshal.
func Codecs() []codec.Codec { return codec.Linked().All() }

// Registry returns codec.Linked: a registry of new instances of every
// codec the program links, which, once this package is imported, is every
// codec serbench ships that this build has. It knows why a shipped codec is
// missing from this build (Registry.Absent): encoding/json/v2 on a
// toolchain without it, gotiny under -race.
func Registry() *codec.Registry {
	r := codec.Linked()
	if why := stdjsonv2.Absent(); why != "" {
		r.SetAbsent(stdjsonv2.ID, why)
	}
	if childproc.RaceEnabled {
		r.SetAbsent(gotiny.ID, raceAbsent)
	}
	return r
}

// raceAbsent says why a -race build lacks gotiny.
const raceAbsent = "gotiny is left out of binaries built with -race: its pointer arithmetic fails the race build's checkptr checks"
