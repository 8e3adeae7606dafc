package codec

// Untyped drives a codec's library on values of no Go type known ahead
// (an `any`): what package conformance runs a format's test suites with
// (JSONTestSuite, msgpack-test-suite). The adapter of the library states
// it, next to its Marshal and Unmarshal.
type Untyped struct {
	// Method says in words how the library is driven; conformance
	// reports print it.
	Method string
	// Decode decodes data into a value of the library's own choosing (nil,
	// bool, numbers, strings, []any, maps), or fails. Nil when NA is set.
	Decode func(data []byte) (any, error)
	// Encode encodes such a value; nil when the library cannot.
	Encode func(v any) ([]byte, error)
	// NoEncode says, by value kind of the suite ("ext", ...), why Encode
	// cannot be checked on it.
	NoEncode map[string]string
	// Ext returns the library's value for a MessagePack extension (type
	// and data), for Encode; nil when it has none.
	Ext func(typ int8, data []byte) any
	// NA, when set, says why the codec has no untyped decoder (and no
	// other field is set): ffjson hands an `any` to encoding/json, say.
	NA string
}

// UntypedDriver is implemented by codecs whose adapter states an Untyped
// driver; ok is false when it states none. Codecs without one are driven
// through Bind(new(any)) where they accept it.
type UntypedDriver interface {
	Untyped() (u Untyped, ok bool)
}

var (
	_ UntypedDriver = Funcs{}
	_ UntypedDriver = Converting[any]{}
)

// Untyped implements UntypedDriver: f.Any, when set.
func (f Funcs) Untyped() (Untyped, bool) {
	if f.Any == nil {
		return Untyped{}, false
	}
	return *f.Any, true
}

// Untyped implements UntypedDriver: c.Any, when set.
func (c Converting[G]) Untyped() (Untyped, bool) {
	if c.Any == nil {
		return Untyped{}, false
	}
	return *c.Any, true
}
