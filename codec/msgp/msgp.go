// Package msgp adapts github.com/tinylib/msgp, a MessagePack code generator.
// It encodes the mirror types of package mirror, onto which msgp generated
// MarshalMsg, UnmarshalMsg and Msgsize (run with -io=false -tests=false).
package msgp

import (
	"fmt"

	"github.com/tinylib/msgp/msgp"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/mirror"
)

// ID is the codec's stable ID.
const ID = "msgp"

const module = "github.com/tinylib/msgp"

// New returns msgp: Marshal is v.MarshalMsg(nil), which allocates a buffer
// of v.Msgsize() bytes, an upper bound, that the caller owns; Unmarshal is
// UnmarshalMsg into a new value, which copies every string out of the input.
// Structs are maps keyed by the json names (the `msg` tags), and map entries
// are written in Go's map iteration order. time.Time uses msgp's own
// extension type 5 (Unix seconds and nanoseconds): the instant is kept, the
// zone is not, and values decode in time.Local. Bind returns an error
// wrapping codec.ErrUnsupported for every type but the five seed scenarios
// and the annotation workloads.
func New() codec.Codec {
	return codec.Converting[methods]{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2026-09-30", // v1.6.5, the linked and newest version: go list -m -f {{.Time}} github.com/tinylib/msgp

			API:    codec.APITyped,
			Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
			Format: "MessagePack", Kind: codec.Codegen, Binary: true,
			Options: "generated onto mirror types (-io=false); MarshalMsg(nil) and UnmarshalMsg; time as msgp extension 5 (instant kept, zone not); map keys unsorted",
			Time:    "ns, msgp extension 5: instant kept, decoded as Local (offset and zone name lost); any year", Default: true},
		Convs:   mirror.Convs,
		Missing: mirror.Missing,
		Marshal: func(m methods) ([]byte, error) { return m.MarshalMsg(nil) },
		Unmarshal: func(data []byte, m methods) error {
			rest, err := m.UnmarshalMsg(data)
			if err != nil {
				return fmt.Errorf("msgp: %w", err)
			}
			if len(rest) != 0 {
				return fmt.Errorf("msgp: %d bytes left after the value", len(rest))
			}
			return nil
		},
		Any: &codec.Untyped{
			Method: "msgp.ReadIntfBytes (no bytes may be left) and msgp.AppendIntf",
			Decode: func(data []byte) (any, error) {
				v, rest, err := msgp.ReadIntfBytes(data)
				if err == nil && len(rest) > 0 {
					err = fmt.Errorf("%d bytes left after the value", len(rest))
				}
				return v, err
			},
			Encode: func(v any) ([]byte, error) { return msgp.AppendIntf(nil, v) },
			Ext:    func(typ int8, data []byte) any { return &msgp.RawExtension{Type: typ, Data: data} },
		},
	}
}

// methods are the methods msgp generated onto the mirror types.
type methods interface {
	msgp.Marshaler
	msgp.Unmarshaler
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
