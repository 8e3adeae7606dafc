// Package xdr adapts github.com/davecgh/go-xdr/xdr2, a reflection-based
// encoder of XDR (RFC 4506, the External Data Representation of ONC RPC
// and NFS): big-endian, every item padded to four bytes, no field names.
package xdr

import (
	"bytes"
	"fmt"
	"reflect"

	"github.com/davecgh/go-xdr/xdr2"

	"github.com/serbench/serbench/codec"
)

// ID is the codec's stable ID.
const ID = "xdr"

const module = "github.com/davecgh/go-xdr"

// New returns go-xdr's xdr2 package with its defaults (xdr.Marshal,
// xdr.UnmarshalLimited with the message's length as the limit, so that a
// length prefix cannot claim more than the message holds, as a caller
// decoding untrusted bytes must). Unmarshal must consume the whole message:
// trailing bytes are an error. The library writes a Go int or uint as XDR's
// 32-bit int, truncating larger values without an error (int64 and uint64
// are 64-bit hypers). Bind refuses types holding interfaces: XDR has no type
// tags, and the library cannot decode into an interface.
func New() codec.Codec {
	return codec.Refusing{Refuse: refuse, Codec: codec.Funcs{
		Meta: codec.Info{ID: ID, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2016-11-23", // v0.0.0-20161123171359-e6a2ba005892, the linked and newest version: go list -m -f {{.Time}} github.com/davecgh/go-xdr

			API:    codec.APITyped,
			Format: "XDR", Kind: codec.Reflect, Binary: true,
			Time:    "ns, offset kept (an RFC 3339 string), zone name not; years outside 0–9999 fail to decode",
			Status:  "unmaintained upstream: last commit 2016, no tagged release",
			Options: "xdr2 package (writes Go int and uint as XDR's 32-bit int: beyond 32 bits they are truncated without an error); UnmarshalLimited with the message length as the limit (plain Unmarshal allocates what a length prefix claims); trailing bytes rejected"},
		Marshal:   marshal,
		Unmarshal: unmarshal,
	}}
}

// refuse gives the reason Bind refuses t, or "".
func refuse(t reflect.Type) string {
	if codec.HoldsKind(t, reflect.Interface) {
		return "holds interface values, which XDR (no type tags) cannot carry"
	}
	return ""
}

func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := xdr.Marshal(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func unmarshal(data []byte, v any) error {
	// No string, opaque or array can be longer than the message: the
	// limit stops a length prefix from claiming gigabytes.
	n, err := xdr.UnmarshalLimited(bytes.NewReader(data), v, uint(len(data)))
	if err != nil {
		return err
	}
	if n != len(data) {
		return fmt.Errorf("xdr: decoded %d of %d bytes", n, len(data))
	}
	return nil
}

// Codecs returns a new instance of the codec this package ships (codec/all
// holds every shipped codec, codec/defaults the default set).
func Codecs() []codec.Codec { return []codec.Codec{New()} }
