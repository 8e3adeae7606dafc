// Package sonic adapts github.com/bytedance/sonic, a JSON library that
// compiles encoders and decoders just in time and uses SIMD. On platforms it
// does not support (see its compat.go build constraint: other than amd64 and
// arm64, or go1.28 and later in v1.15) it falls back to encoding/json, and
// Info.Options says so; when the linked sonic is older than the first
// release that supports the running Go (CheckGo, GoSupports), Info.Warning
// says so.
package sonic

import (
	"runtime"

	"github.com/bytedance/sonic"

	"github.com/serbench/serbench/codec"
)

// The codec IDs: ConfigStd is the fair default (it behaves as encoding/json:
// sorted map keys, HTML escaping, valid UTF-8); the others are variants.
const (
	ID        = "sonic"
	IDDefault = "sonic/default"
	IDFastest = "sonic/fastest"
)

const module = "github.com/bytedance/sonic"

// New returns sonic.ConfigStd.
func New() codec.Codec {
	return newCodec(ID, sonic.ConfigStd, "ConfigStd", "ConfigStd (behaves as encoding/json)")
}

// NewDefault returns sonic.ConfigDefault: no map key sorting, no HTML escaping,
// no UTF-8 validation.
func NewDefault() codec.Codec {
	return newCodec(IDDefault, sonic.ConfigDefault, "ConfigDefault", "ConfigDefault (unsorted map keys, no HTML escaping, no UTF-8 check)")
}

// NewFastest returns sonic.ConfigFastest, which also skips float precision
// (it writes floats with fewer digits).
func NewFastest() codec.Codec {
	return newCodec(IDFastest, sonic.ConfigFastest, "ConfigFastest", "ConfigFastest (as ConfigDefault, plus fewer float digits and no string copy)")
}

func newCodec(id string, api sonic.API, config, opts string) codec.Codec {
	fieldsBy := ""
	if id == ID { // evolve runs one sonic row
		fieldsBy = "json tags, by name"
	}
	if !jit {
		opts += "; this platform has no JIT: falls back to encoding/json"
	}
	warning := ""
	if err := CheckGo(codec.ModuleVersion(module), runtime.Version()); err != nil {
		warning = err.Error()
	}
	return codec.Funcs{
		Meta: codec.Info{ID: id, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2026-10-26", // v1.15.5, the linked and newest version: go list -m -f {{.Time}} github.com/bytedance/sonic

			API:    codec.APITyped,
			Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
			Format: "JSON", Kind: codec.JIT, Options: opts,
			Engine: engine(), Warning: warning,
			Time: "ns, RFC 3339 text: offset kept, zone name lost; years 0-9999 only", Default: id == ID},
		Marshal:   api.Marshal,
		Unmarshal: api.Unmarshal,
		Code: &codec.GoCode{Imports: []string{"github.com/bytedance/sonic"},
			Marshal: "sonic." + config + ".Marshal", Unmarshal: "sonic." + config + ".Unmarshal"},
		FieldsBy: fieldsBy,
	}
}

// Codecs returns a new instance of each codec this package ships, in
// report order (codec/all holds every shipped codec, codec/defaults the
// default set).
func Codecs() []codec.Codec { return []codec.Codec{New(), NewDefault(), NewFastest()} }
