package evolve

import (
	"fmt"

	"github.com/tinylib/msgp/msgp"
)

// msgpValue is what msgp generates for each type of types.go.
type msgpValue interface {
	msgp.Marshaler
	msgp.Unmarshaler
}

// MsgpCodec returns the row of github.com/tinylib/msgp with the methods it
// generates from types.go into types_gen.go (the msg tags): a MessagePack
// map keyed by field name, as the msgpack row, but decoded by generated
// code, which skips keys it does not know.
func MsgpCodec() Codec {
	return Codec{ID: "msgp", Schema: "msg tags, by name (generated)", Sides: func(ch Change) (Side, Side, error) {
		return msgpSide(func() any { return new(Order) }), msgpSide(ch.newV2), nil
	}}
}

func msgpSide(newT func() any) Side {
	enc := func(v any) ([]byte, error) { return v.(msgpValue).MarshalMsg(nil) }
	return Side{
		Fields: fieldsOf(newT()),
		Encode: func(r Record) ([]byte, error) {
			v := newT()
			if err := fillFrom(v, r); err != nil {
				return nil, err
			}
			return enc(v)
		},
		Decode: func(data []byte) (Record, func() ([]byte, error), error) {
			v := newT()
			rest, err := v.(msgpValue).UnmarshalMsg(data)
			if err != nil {
				return nil, nil, err
			}
			if len(rest) > 0 {
				return nil, nil, fmt.Errorf("evolve: msgp: %d bytes after the value", len(rest))
			}
			r, err := recordOf(v)
			return r, func() ([]byte, error) { return enc(v) }, err
		},
	}
}
