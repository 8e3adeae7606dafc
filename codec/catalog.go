package codec

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
)

// Shipped describes one codec that serbench ships, linked into the program
// or not: the registry knows every shipped ID, and where it comes from, even
// when the program links only the default set.
type Shipped struct {
	// ID is the codec's Info.ID.
	ID string
	// Package is the import path of its adapter package.
	Package string
	// Func is the adapter's constructor in Package: "New", "NewFastest".
	Func string
	// Default is its Info.Default: package codec/defaults links it.
	Default bool
}

// Import paths of the packages that link shipped codecs.
const (
	// AllPackage links every shipped codec; `serbench` imports it.
	AllPackage = "github.com/serbench/serbench/codec/all"
	// DefaultsPackage links the default set; the root package imports it.
	DefaultsPackage = "github.com/serbench/serbench/codec/defaults"
)

// adapters is the import path prefix of the adapter packages.
const adapters = "github.com/serbench/serbench/codec/"

// catalog is every shipped codec, in the order reports show them: the
// encoding/json baseline, the other JSON libraries, then the binary
// formats. codec/all's tests check it against the codecs that package
// registers: the same IDs, constructors and default set.
var catalog = []Shipped{
	{ID: "encoding/json", Package: adapters + "stdjson", Func: "New", Default: true},
	{ID: "json-v2", Package: adapters + "jsonv2", Func: "New", Default: true},
	// Only in a build by Go 1.27 or later without GOEXPERIMENT=nojsonv2
	// (package stdjsonv2); Registry.Absent says why elsewhere.
	{ID: "encoding/json/v2", Package: adapters + "stdjsonv2", Func: "New", Default: true},
	{ID: "jsoniter", Package: adapters + "jsoniter", Func: "New", Default: true},
	{ID: "jsoniter/fastest", Package: adapters + "jsoniter", Func: "NewFastest"},
	{ID: "go-json", Package: adapters + "gojson", Func: "New", Default: true},
	{ID: "sonic", Package: adapters + "sonic", Func: "New", Default: true},
	{ID: "sonic/default", Package: adapters + "sonic", Func: "NewDefault"},
	{ID: "sonic/fastest", Package: adapters + "sonic", Func: "NewFastest"},
	{ID: "segmentio-json", Package: adapters + "segmentio", Func: "New"},
	{ID: "easyjson", Package: adapters + "easyjson", Func: "New", Default: true},
	{ID: "ffjson", Package: adapters + "ffjson", Func: "New"},
	{ID: "fastjson", Package: adapters + "fastjson", Func: "New"},
	{ID: "simdjson", Package: adapters + "simdjson", Func: "New"},
	{ID: "msgpack", Package: adapters + "msgpack", Func: "New", Default: true},
	{ID: "msgpack/array", Package: adapters + "msgpack", Func: "NewArray"},
	{ID: "msgp", Package: adapters + "msgp", Func: "New", Default: true},
	{ID: "cbor", Package: adapters + "cbor", Func: "New", Default: true},
	{ID: "gob", Package: adapters + "gob", Func: "New", Default: true},
	{ID: "gob/stream", Package: adapters + "gob", Func: "NewStream"},
	{ID: "protobuf", Package: adapters + "protobuf", Func: "New", Default: true},
	{ID: "protobuf/opaque", Package: adapters + "protobuf/opaque", Func: "New"},
	{ID: "vtprotobuf", Package: adapters + "vtprotobuf", Func: "New", Default: true},
	{ID: "gogoproto", Package: adapters + "gogoproto", Func: "New"},
	{ID: "hyperpb", Package: adapters + "hyperpb", Func: "New"},
	{ID: "flatbuffers", Package: adapters + "flatbuffers", Func: "New", Default: true},
	{ID: "flatbuffers/lazy", Package: adapters + "flatbuffers", Func: "NewLazy"},
	{ID: "capnp", Package: adapters + "capnp", Func: "New"},
	{ID: "capnp/lazy", Package: adapters + "capnp", Func: "NewLazy"},
	{ID: "thrift/binary", Package: adapters + "thrift", Func: "NewBinary"},
	{ID: "thrift/compact", Package: adapters + "thrift", Func: "NewCompact"},
	{ID: "msgpackgen", Package: adapters + "msgpackgen", Func: "New"},
	{ID: "msgpackgen/array", Package: adapters + "msgpackgen", Func: "NewArray"},
	{ID: "bebop", Package: adapters + "bebop", Func: "New"},
	{ID: "benc", Package: adapters + "benc", Func: "New"},
	{ID: "benc/plain", Package: adapters + "benc", Func: "NewPlain"},
	{ID: "mus", Package: adapters + "mus", Func: "New"},
	{ID: "bson", Package: adapters + "bson", Func: "New"},
	{ID: "avro", Package: adapters + "avro", Func: "New"},
	{ID: "goavro", Package: adapters + "goavro", Func: "New"},
	{ID: "twmb-avro", Package: adapters + "twmbavro", Func: "New"},
	{ID: "ugorji/msgpack", Package: adapters + "ugorji", Func: "NewMsgpack"},
	{ID: "ugorji/cbor", Package: adapters + "ugorji", Func: "NewCBOR"},
	{ID: "ugorji/binc", Package: adapters + "ugorji", Func: "NewBinc"},
	{ID: "ugorji/simple", Package: adapters + "ugorji", Func: "NewSimple"},
	{ID: "shamaton-msgpack", Package: adapters + "shamaton", Func: "New"},
	{ID: "shamaton-msgpack/array", Package: adapters + "shamaton", Func: "NewArray"},
	{ID: "kelindar-binary", Package: adapters + "kelindar", Func: "New"},
	{ID: "gotiny", Package: adapters + "gotiny", Func: "New"},
	{ID: "xdr", Package: adapters + "xdr", Func: "New"},
	{ID: "sereal", Package: adapters + "sereal", Func: "New"},
	{ID: "dedis-protobuf", Package: adapters + "dedis", Func: "New"},
	{ID: "ikeapack", Package: adapters + "ikeapack", Func: "New"},
	{ID: "alecthomas-binary", Package: adapters + "alecthomas", Func: "New"},
	{ID: "hprose", Package: adapters + "hprose", Func: "New"},
	{ID: "enkodo", Package: adapters + "enkodo", Func: "New"},
	{ID: "wire", Package: adapters + "wire", Func: "New", Default: true},
	{ID: "wire/reuse", Package: adapters + "wire", Func: "NewReuse", Default: true},
	{ID: "wire/lazy", Package: adapters + "wire", Func: "NewLazy"},
	{ID: "memmove", Package: adapters + "memmove", Func: "New", Default: true},
}

// Catalog returns every codec serbench ships, in report order, whether this
// program links it or not.
func Catalog() []Shipped { return append([]Shipped(nil), catalog...) }

// shipped returns the catalog entry of id.
func shipped(id string) (Shipped, bool) {
	for _, s := range catalog {
		if s.ID == id {
			return s, true
		}
	}
	return Shipped{}, false
}

// linked holds the constructors registered by Register, by catalog index.
var linked struct {
	sync.Mutex
	news map[int]func() Codec
}

// Register links a shipped codec into the program, as database/sql drivers
// register themselves: packages codec/defaults and codec/all call it from
// their init functions with adapter constructors (stdjson.New,
// sonic.NewFastest, ...), and Linked returns what was registered. A
// constructor registered twice is linked once. Register panics, as
// sql.Register does, when newCodec is not the constructor of a Catalog
// entry: a codec of your own goes in serbench.Options.Extra or a Registry
// of your own instead.
func Register(newCodec func() Codec) {
	name := runtime.FuncForPC(reflect.ValueOf(newCodec).Pointer()).Name()
	for i, s := range catalog {
		if name == s.Package+"."+s.Func {
			linked.Lock()
			defer linked.Unlock()
			if linked.news == nil {
				linked.news = map[int]func() Codec{}
			}
			linked.news[i] = newCodec
			return
		}
	}
	panic(fmt.Sprintf("codec: Register(%s): not the constructor of a shipped codec (see Catalog)", name))
}

// Linked returns a registry of new instances of the registered codecs, in
// catalog order: the default set when the program imports codec/defaults
// (as the root package does), every shipped codec when it imports
// codec/all. Groups (Registry.Resolve, Registry.Members) are taken over
// these codecs only. Linked panics if a constructor returns a codec whose
// ID is not its catalog entry's, which codec/all's tests rule out.
func Linked() *Registry {
	linked.Lock()
	defer linked.Unlock()
	var cs []Codec
	for i, s := range catalog {
		newCodec, ok := linked.news[i]
		if !ok {
			continue
		}
		c := newCodec()
		if id := c.Info().ID; id != s.ID {
			panic(fmt.Sprintf("codec: %s.%s returned a codec with ID %q, want %q", s.Package, s.Func, id, s.ID))
		}
		cs = append(cs, c)
	}
	r, err := NewRegistry(cs...)
	if err != nil {
		panic(err) // catalog IDs are unique: codec/all's TestCatalog
	}
	r.linked = true
	return r
}

// notLinked returns the error for a name that is a shipped codec this
// program does not link, and false for any other name.
func notLinked(name string) (string, bool) {
	s, ok := shipped(name)
	if !ok || strings.HasPrefix(name, GroupPrefix) {
		return "", false
	}
	return fmt.Sprintf("codec %q (package %s) is not linked into this program: import _ %q to link every codec, or call codec.Register(%s.%s)", name, s.Package, AllPackage, s.Package[strings.LastIndex(s.Package, "/")+1:], s.Func), true
}
