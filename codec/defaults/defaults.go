// Package defaults holds the default set of codecs (codec.Info.Default, the
// group "default"; the codecs `serbench run` times without -codecs):
// Registry. The root package serbench runs it unless told otherwise, so a
// go test user links these libraries and no other codec's; package
// codec/all holds every codec.
package defaults

//go:generate go run ../all/internal/defaultsgen others_gen.go

import (
	"fmt"
	"sync"

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

// registry is Registry's value, built on first use.
var registry = sync.OnceValue(func() *codec.Registry {
	var cs []codec.Codec
	for _, codecs := range [][]codec.Codec{
		stdjson.Codecs(), jsonv2.Codecs(), stdjsonv2.Codecs(), jsoniter.Codecs(), gojson.Codecs(),
		sonic.Codecs(), easyjson.Codecs(), msgpack.Codecs(), msgp.Codecs(), cbor.Codecs(), gob.Codecs(),
		protobuf.Codecs(), vtprotobuf.Codecs(), flatbuffers.Codecs(), wire.Codecs(), memmove.Codecs(),
	} {
		for _, c := range codecs {
			if c.Info().Default {
				cs = append(cs, c)
			}
		}
	}
	absent := map[string]string{}
	for _, id := range others {
		absent[id] = fmt.Sprintf("not in the default set (package codec/defaults): %s.Registry() holds it", AllPackage)
	}
	if why := stdjsonv2.Absent(); why != "" {
		absent[stdjsonv2.ID] = why
	}
	r, err := codec.NewRegistry(cs...)
	if err == nil {
		r, err = r.WithAbsent(absent)
	}
	if err != nil {
		panic(err) // the adapters' IDs are constants: codec/all's TestDefaults rules this out
	}
	return r
})

// Registry returns the default set, in report order: new instances of the
// codecs whose Info.Default is set. It is built once per process and
// shared: the Registry is immutable. It knows every other codec serbench
// ships as absent (Registry.Absences), so that naming one is an error that
// names AllPackage, whose Registry holds every codec.
func Registry() *codec.Registry { return registry() }

// AllPackage is the import path of the package whose Registry holds every
// codec serbench ships.
const AllPackage = "github.com/serbench/serbench/codec/all"
