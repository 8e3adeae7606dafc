// Package ugorji adapts github.com/ugorji/go/codec, one reflection-based
// library with a handle per format: MessagePack, CBOR, Binc (ugorji's own
// binary format) and Simple (its minimal binary format). Each is a
// variant, ugorji/<handle>.
//
// Every handle is configured the same way: maps decoded into an interface
// are map[string]any (MapType; the default is map[any]any), which is what
// encoding/json gives; struct fields are keyed by their `json` tags (the
// library's default tag keys, "codec" then "json"). Each Binding keeps one
// Encoder and one Decoder and resets them per message (ResetBytes), as the
// library's documentation advises for speed.
package ugorji

import (
	"fmt"
	"reflect"

	"github.com/ugorji/go/codec"

	sc "github.com/serbench/serbench/codec"
)

// The variants' stable IDs.
const (
	IDMsgpack = "ugorji/msgpack"
	IDCBOR    = "ugorji/cbor"
	IDBinc    = "ugorji/binc"
	IDSimple  = "ugorji/simple"
)

const module = "github.com/ugorji/go/codec"

var mapType = reflect.TypeFor[map[string]any]()

// NewMsgpack returns the MessagePack handle with WriteExt set (the current
// MessagePack spec: str8, bin and extension types, among them the timestamp
// extension for time.Time) and RawToString (so that strings inside
// interfaces decode as string, not []byte).
func NewMsgpack() sc.Codec {
	h := &codec.MsgpackHandle{WriteExt: true}
	h.MapType = mapType
	h.RawToString = true
	return &handle{h: h, info: info(IDMsgpack, "MessagePack",
		"MsgpackHandle{WriteExt: true} (current spec: str8, bin, timestamp extension); RawToString; MapType=map[string]any",
		"ns, UTC forced (timestamp extension -1)")}
}

// NewCBOR returns the CBOR handle with TimeRFC3339 set: its default writes
// a time.Time as seconds since the epoch (CBOR tag 1), rounded to
// microseconds. Either way the decoder rounds a time to microseconds and
// converts it to UTC.
func NewCBOR() sc.Codec {
	h := &codec.CborHandle{TimeRFC3339: true}
	h.MapType = mapType
	return &handle{h: h, info: info(IDCBOR, "CBOR",
		"CborHandle{TimeRFC3339: true} (tag 0 text; the default tag 1 is seconds since the epoch); MapType=map[string]any",
		"µs, UTC forced (RFC 3339 text with ns on the wire, but the decoder rounds to µs in UTC; years outside 0–9999 fail to decode)")}
}

// NewBinc returns the Binc handle with its defaults (AsSymbols 0: the
// library decides when to write repeated strings as symbols).
func NewBinc() sc.Codec {
	h := &codec.BincHandle{}
	h.MapType = mapType
	return &handle{h: h, info: info(IDBinc, "Binc", "BincHandle defaults (AsSymbols: library's choice); MapType=map[string]any",
		"ns, offset kept, zone name not")}
}

// NewSimple returns the Simple handle with its defaults.
func NewSimple() sc.Codec {
	h := &codec.SimpleHandle{}
	h.MapType = mapType
	return &handle{h: h, info: info(IDSimple, "ugorji Simple", "SimpleHandle defaults; MapType=map[string]any",
		"ns, offset kept, zone name not")}
}

func info(id, format, options, time string) sc.Info {
	return sc.Info{ID: id, Module: module, Version: sc.ModuleVersion(module),
		LastRelease: "2026-08-04", // v1.3.2, the linked and newest version: go list -m -f {{.Time}} github.com/ugorji/go/codec

		API:    sc.APITyped,
		Unsafe: true, // its module imports package unsafe (codec/all's TestUnsafe checks)
		Format: format, Kind: sc.Reflect, Binary: true, Options: options, Time: time}
}

// handle is one ugorji handle as a serbench Codec.
type handle struct {
	h    codec.Handle
	info sc.Info
}

func (c *handle) Info() sc.Info { return c.info }

// Bind implements codec.Codec. sample must be a non-nil pointer.
func (c *handle) Bind(sample any) (sc.Binding, error) { return c.BindNew(sample, nil) }

// BindNew implements codec.NewBinder: Unmarshal decodes into newValue's
// values.
func (c *handle) BindNew(sample any, newValue func() any) (sc.Binding, error) {
	t := reflect.TypeOf(sample)
	if t == nil || t.Kind() != reflect.Pointer || reflect.ValueOf(sample).IsNil() {
		return nil, fmt.Errorf("%s: Bind needs a non-nil pointer, got %T", c.info.ID, sample)
	}
	return &binding{newValue: sc.NewValue(t.Elem(), newValue), enc: codec.NewEncoderBytes(nil, c.h), dec: codec.NewDecoderBytes(nil, c.h)}, nil
}

// binding reuses one Encoder and one Decoder; a Binding is used by one
// goroutine at a time.
type binding struct {
	newValue func() any
	enc      *codec.Encoder
	dec      *codec.Decoder
}

// Marshal encodes v into a new slice the caller owns.
func (b *binding) Marshal(v any) ([]byte, error) {
	var out []byte
	b.enc.ResetBytes(&out)
	if err := b.enc.Encode(v); err != nil {
		return nil, err
	}
	return out, nil
}

// Unmarshal decodes data into a new value of the bound type.
func (b *binding) Unmarshal(data []byte) (any, error) {
	p := b.newValue()
	b.dec.ResetBytes(data)
	if err := b.dec.Decode(p); err != nil {
		return nil, err
	}
	return p, nil
}

// Codecs returns a new instance of each codec this package ships, in
// report order (codec/all holds every shipped codec, codec/defaults the
// default set).
func Codecs() []sc.Codec { return []sc.Codec{NewMsgpack(), NewCBOR(), NewBinc(), NewSimple()} }
