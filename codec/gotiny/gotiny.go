// Package gotiny adapts github.com/niubaoshu/gotiny, a reflection-based
// encoder that builds an encoding engine per Go type and writes fields in
// declaration order with no names or type tags.
package gotiny

import (
	"fmt"

	"github.com/niubaoshu/gotiny"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "gotiny"

const module = "github.com/niubaoshu/gotiny"

// New returns gotiny with its defaults (gotiny.Marshal, gotiny.Unmarshal).
// Neither returns an error: Unmarshal panics on input it cannot read, so the
// adapter recovers that panic into an error, as a caller decoding bytes from
// the network must.
func New() codec.Codec {
	return codec.Funcs{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2019-02-26", // v0.0.3, the linked and newest version: go list -m -f {{.Time}} github.com/niubaoshu/gotiny

			API:    codec.APITyped,
			Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
			Format: "gotiny", Kind: codec.Reflect, Binary: true,
			Time:    "ns, zone lost: Unix ns as an int64, decoded in time.Local (years outside 1678–2262 wrap)",
			Status:  "last release v0.0.3 (2019); no error results: bad input panics; invalid unsafe.Pointer arithmetic (a uintptr from a slice header turned back into a pointer), which -race's checkptr aborts: left out of race builds",
			Options: "defaults (fields in declaration order, no names on the wire); Unmarshal's panics on bad input recovered into errors"},
		Marshal:   marshal,
		Unmarshal: unmarshal,
	}
}

func marshal(v any) ([]byte, error) { return gotiny.Marshal(v), nil }

func unmarshal(data []byte, v any) (err error) {
	defer codec.RecoverDecode(&err, ID, data)
	if n := gotiny.Unmarshal(data, v); n != len(data) {
		return fmt.Errorf("gotiny: decoded %d of %d bytes", n, len(data))
	}
	return nil
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
