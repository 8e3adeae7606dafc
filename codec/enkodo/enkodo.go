// Package enkodo adapts github.com/mojura/enkodo, an encoder with no
// reflection and no schema: a type is encodable when it has hand-written
// MarshalEnkodo and UnmarshalEnkodo methods that write and read its fields
// one by one with the library's primitives (varint integers, floats as
// varints of their bits, strings and []byte after a varint length). The
// wire carries no field names, tags or lengths of structs.
//
// The methods in methods.go are written for the five seed scenario types.
// They are on defined types of this package whose underlying types are the
// scenario types' (type userEvent scenario.UserEvent), so converting is a
// pointer conversion, no copy: what a user who adds the methods to their
// own types pays.
package enkodo

import (
	"bytes"
	"fmt"

	"github.com/mojura/enkodo"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

// ID is the codec's stable ID.
const ID = "enkodo"

const module = "github.com/mojura/enkodo"

// message is what every type with hand-written methods implements.
type message interface {
	enkodo.Encodee
	enkodo.Decodee
}

// New returns enkodo with the methods of methods.go for the five seed
// scenario types; Bind refuses any other type, since the library has no
// way to encode a type without hand-written methods. Unmarshal must
// consume the whole message: trailing bytes are an error. The library
// panics on a negative string length (make with a negative size); the
// adapter recovers its panics into errors. The library allocates a string
// of the length a varint claims before reading it, and has no limit to set.
//
// Time is encoded as codec.TimeParts gives it (Unix seconds, nanoseconds,
// offset in seconds, three varints): the instant to the nanosecond and the
// offset from UTC are kept, the zone's name is not. A nil slice or map is
// written as length -1, so nil and empty stay apart.
func New() codec.Codec {
	return codec.Converting[message]{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2021-10-21", // v0.5.6, the linked and newest version: go list -m -f {{.Time}} github.com/mojura/enkodo

			API:    codec.APITyped,
			Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
			Format: "enkodo", Kind: codec.Manual, Binary: true,
			Time:    "ns, offset kept, zone name not (hand-written: Unix seconds, nanoseconds and offset as varints)",
			Status:  "v0.5.6 (2021-10), beta by its README; allocates what a length prefix claims (no decode limit)",
			Options: "methods written by hand for the five seed types (fields in declaration order; nil slices and maps written as length -1); trailing bytes rejected; panics recovered into errors"},
		Convs: []codec.Conv{
			codec.NewConv(func(v *scenario.SSEEvent) *sseEvent { return (*sseEvent)(v) },
				func(m *sseEvent) *scenario.SSEEvent { return (*scenario.SSEEvent)(m) }),
			codec.NewConv(func(v *scenario.UserEvent) *userEvent { return (*userEvent)(v) },
				func(m *userEvent) *scenario.UserEvent { return (*scenario.UserEvent)(m) }),
			codec.NewConv(func(v *scenario.WSMessage) *wsMessage { return (*wsMessage)(v) },
				func(m *wsMessage) *scenario.WSMessage { return (*scenario.WSMessage)(m) }),
			codec.NewConv(func(v *scenario.Annotation) *annotation { return (*annotation)(v) },
				func(m *annotation) *scenario.Annotation { return (*scenario.Annotation)(m) }),
			codec.NewConv(func(v *scenario.UserProfile) *userProfile { return (*userProfile)(v) },
				func(m *userProfile) *scenario.UserProfile { return (*scenario.UserProfile)(m) }),
		},
		Missing:   "%T has no hand-written MarshalEnkodo and UnmarshalEnkodo methods, without which the library cannot encode a type (written here for the five seed types only)",
		Marshal:   marshal,
		Unmarshal: unmarshal,
	}
}

func marshal(m message) (data []byte, err error) {
	defer codec.RecoverEncode(&err, ID, m)
	data, err = enkodo.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("enkodo: encoding %T: %w", m, err)
	}
	return data, nil
}

func unmarshal(data []byte, m message) (err error) {
	defer codec.RecoverDecode(&err, ID, data)
	r := bytes.NewReader(data)
	if err := enkodo.NewReader(r).Decode(m); err != nil {
		return fmt.Errorf("enkodo: decoding %d bytes into %T: %w", len(data), m, err)
	}
	if r.Len() != 0 {
		return fmt.Errorf("enkodo: decoded %d of %d bytes", len(data)-r.Len(), len(data))
	}
	return nil
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
