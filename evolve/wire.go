package evolve

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/serbench/serbench/codec/wire"
)

// ErrWireVersion is returned by a wire reader for a format-version byte
// it does not know.
var ErrWireVersion = errors.New("evolve: unsupported wire format version")

// wireLayout is a Go struct type laid out by codec/wire's rules: fields in
// declaration order, no tags or names; uint64 as a uvarint, int32 as a
// range-checked zig-zag varint, int64 as a zig-zag varint, string as a
// length-prefixed byte string.
type wireLayout struct {
	names []string
	kinds []reflect.Kind
}

func layoutOf(newT func() any) wireLayout {
	t := reflect.TypeOf(newT()).Elem()
	var l wireLayout
	for i := range t.NumField() {
		l.names = append(l.names, t.Field(i).Tag.Get("evolve"))
		l.kinds = append(l.kinds, t.Field(i).Type.Kind())
	}
	return l
}

func (l wireLayout) fields() []string { return sortedCopy(l.names) }

// encode appends version and then r's fields in l's order.
func (l wireLayout) encode(version byte, r Record) ([]byte, error) {
	b := []byte{version}
	for i, name := range l.names {
		x := r[name]
		switch l.kinds[i] {
		case reflect.Uint64:
			u, _ := x.(uint64)
			b = wire.AppendUvarint(b, u)
		case reflect.Int32, reflect.Int64:
			n, _ := x.(int64)
			if l.kinds[i] == reflect.Int32 {
				n = int64(int32(n))
			}
			b = wire.AppendVarint(b, n)
		case reflect.String:
			s, _ := x.(string)
			b = wire.AppendString(b, s)
		default:
			return nil, fmt.Errorf("evolve: wire: field %s has kind %s", name, l.kinds[i])
		}
	}
	return b, nil
}

// decode reads the fields of l from d, which is past the version byte,
// and requires the input to end there.
func (l wireLayout) decode(d *wire.Decoder) (Record, error) {
	r := Record{}
	for i, name := range l.names {
		switch l.kinds[i] {
		case reflect.Uint64:
			r[name] = d.Uvarint()
		case reflect.Int32:
			r[name] = int64(d.Int32())
		case reflect.Int64:
			r[name] = d.Varint()
		case reflect.String:
			r[name] = d.String()
		}
	}
	if err := d.Finish(); err != nil {
		return nil, err
	}
	return r, nil
}

// WireCodec returns the row of codec/wire's format applied to the order
// type, written by hand here as codec/wire is for its scenario types (the
// building blocks are codec/wire's Append functions and Decoder). The
// first byte is the format version: v1 writes 1 and v2 writes 2. A v1
// reader knows only version 1, as codec/wire's own Decoder.Version
// accepts only wire.Version, so it refuses a v2 message; a v2 reader
// knows both layouts and reads a version-1 message by v1's layout, which
// is the upgrade path a version byte buys.
func WireCodec() Codec {
	return Codec{ID: "wire", Schema: "version byte; fields in declaration order", Sides: func(ch Change) (Side, Side, error) {
		l1, l2 := layoutOf(func() any { return new(Order) }), layoutOf(ch.newV2)
		return wireSide(l1, 1, map[byte]wireLayout{1: l1}, l1.fields()),
			wireSide(l2, 2, map[byte]wireLayout{1: l1, 2: l2}, l2.fields()), nil
	}}
}

// WireSameVersionCodec returns the row of the same hand encoder when v2
// changes the layout but keeps version byte 1: every reader reads its own
// layout, which is what codec/wire's format does when nobody bumps the
// version.
func WireSameVersionCodec() Codec {
	return Codec{ID: "wire/same-version", Schema: "version byte not bumped", Sides: func(ch Change) (Side, Side, error) {
		l1, l2 := layoutOf(func() any { return new(Order) }), layoutOf(ch.newV2)
		return wireSide(l1, 1, map[byte]wireLayout{1: l1}, l1.fields()),
			wireSide(l2, 1, map[byte]wireLayout{1: l2}, l2.fields()), nil
	}}
}

// wireSide writes own with version ver and reads every version of reads,
// keeping the fields of the reader's version (fields).
func wireSide(own wireLayout, ver byte, reads map[byte]wireLayout, fields []string) Side {
	dec := func(data []byte) (Record, error) {
		if len(data) == 0 {
			return nil, fmt.Errorf("%w: empty input", ErrWireVersion)
		}
		l, ok := reads[data[0]]
		if !ok {
			return nil, fmt.Errorf("%w %d", ErrWireVersion, data[0])
		}
		r, err := l.decode(wire.NewDecoder(data[1:], wire.DecMode{}))
		if err != nil {
			return nil, err
		}
		keep := Record{}
		for _, f := range fields {
			keep[f] = r[f]
		}
		return keep, nil
	}
	return Side{
		Fields: fields,
		Encode: func(r Record) ([]byte, error) { return own.encode(ver, r) },
		Decode: func(data []byte) (Record, func() ([]byte, error), error) {
			r, err := dec(data)
			if err != nil {
				return nil, nil, err
			}
			return r, func() ([]byte, error) { return own.encode(ver, r) }, nil
		},
	}
}
