// Package all holds every codec serbench ships: Registry. The CLI builds
// its registry here, and a go test user who wants more than the default set
// that the root package runs (package codec/defaults) passes it in
// serbench.Options.Registry. Importing the package links every codec's
// library; nothing is registered globally.
package all

import (
	"sync"

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

// registry is Registry's value, built on first use.
var registry = sync.OnceValue(func() *codec.Registry {
	var cs []codec.Codec
	for _, codecs := range [][]codec.Codec{
		stdjson.Codecs(), jsonv2.Codecs(), stdjsonv2.Codecs(), jsoniter.Codecs(), gojson.Codecs(),
		sonic.Codecs(), segmentio.Codecs(), easyjson.Codecs(), ffjson.Codecs(), fastjson.Codecs(), simdjson.Codecs(),
		msgpack.Codecs(), msgp.Codecs(), cbor.Codecs(), gob.Codecs(),
		protobuf.Codecs(), opaque.Codecs(), vtprotobuf.Codecs(), gogoproto.Codecs(), hyperpb.Codecs(),
		flatbuffers.Codecs(), capnp.Codecs(), thrift.Codecs(), msgpackgen.Codecs(),
		bebop.Codecs(), benc.Codecs(), mus.Codecs(), bson.Codecs(), avro.Codecs(), goavro.Codecs(), twmbavro.Codecs(),
		ugorji.Codecs(), shamaton.Codecs(), kelindar.Codecs(), gotinyCodecs(), xdr.Codecs(), sereal.Codecs(),
		dedis.Codecs(), ikeapack.Codecs(), alecthomas.Codecs(), hprose.Codecs(), enkodo.Codecs(),
		wire.Codecs(), memmove.Codecs(),
	} {
		cs = append(cs, codecs...)
	}
	absent := map[string]string{}
	if why := stdjsonv2.Absent(); why != "" {
		absent[stdjsonv2.ID] = why
	}
	if childproc.RaceEnabled {
		absent[gotiny.ID] = raceAbsent
	}
	r, err := codec.NewRegistry(cs...)
	if err == nil {
		r, err = r.WithAbsent(absent)
	}
	if err != nil {
		panic(err) // the adapters' IDs are constants: TestRegistry rules this out
	}
	return r
})

// Registry returns every codec serbench ships that this build has, in
// report order: the encoding/json baseline, the other JSON libraries, then
// the binary formats, each adapter package's codecs (its Codecs function)
// in a row. It is built once per process and shared: the Registry is
// immutable. It holds encoding/json/v2 (codec/stdjsonv2) only where the
// toolchain builds it (Go 1.27, not GOEXPERIMENT=nojsonv2). In a binary
// built with -race it leaves out gotiny, whose unsafe code converts a
// uintptr taken from a slice header back to a pointer: the race build's
// pointer checks (checkptr) abort the process on its first Marshal. It
// knows why either is missing (Registry.Absent).
func Registry() *codec.Registry { return registry() }

// gotinyCodecs is gotiny's codecs, none in a -race build.
func gotinyCodecs() []codec.Codec {
	if childproc.RaceEnabled {
		return nil
	}
	return gotiny.Codecs()
}

// raceAbsent says why a -race build lacks gotiny.
const raceAbsent = "gotiny is left out of binaries built with -race: its pointer arithmetic fails the race build's checkptr checks"
