//go:build goexperiment.jsonv2 && go1.27

package stdjsonv2

import (
	"encoding/json/v2"

	"github.com/serbench/serbench/codec"
)

const available = true

// opts keeps nil slices and maps nil through a round trip: by default v2
// writes them as [] and {}, which decode as empty, not nil. They are the
// options of json-v2 (codec/jsonv2), so that the two rows differ by code
// only.
var opts = json.JoinOptions(json.FormatNilSliceAsNull(true), json.FormatNilMapAsNull(true))

// New returns encoding/json/v2 with FormatNilSliceAsNull and
// FormatNilMapAsNull set.
func New() codec.Codec {
	return codec.Funcs{
		Meta: codec.Info{ID: ID, Module: "std", Version: codec.ModuleVersion("std"),
			Format: "JSON", Kind: codec.Reflect, API: codec.APITyped,
			Options: "FormatNilSliceAsNull, FormatNilMapAsNull (nil stays nil, as in v1)",
			Time:    "ns, RFC 3339 text: offset kept, zone name lost; years 0-9999 only", Default: true},
		Marshal:   func(v any) ([]byte, error) { return json.Marshal(v, opts) },
		Unmarshal: func(data []byte, v any) error { return json.Unmarshal(data, v, opts) },
		Code: &codec.GoCode{Imports: []string{"stdjsonv2 encoding/json/v2"},
			Setup:     "var stdjsonv2Opts = stdjsonv2.JoinOptions(stdjsonv2.FormatNilSliceAsNull(true), stdjsonv2.FormatNilMapAsNull(true))",
			Marshal:   "func(v any) ([]byte, error) { return stdjsonv2.Marshal(v, stdjsonv2Opts) }",
			Unmarshal: "func(data []byte, v any) error { return stdjsonv2.Unmarshal(data, v, stdjsonv2Opts) }"},
	}
}

// Codecs returns a new instance of the codec: this build has
// encoding/json/v2.
func Codecs() []codec.Codec { return []codec.Codec{New()} }
