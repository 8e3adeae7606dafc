// Package thrift adapts github.com/apache/thrift, the Go library of Apache
// Thrift, with the structs that Debian 12's Thrift compiler (0.17.0)
// generated from schema/thrift/serbench.thrift into package thriftgen, in
// its two serialization protocols: "thrift/binary" (TBinaryProtocol) and
// "thrift/compact" (TCompactProtocol).
//
// Each codec is a codec.Converting over the generated structs: ToNative
// copies a scenario value into one (convert_gen.go, generated from
// internal/gencheck/convert.go.tmpl), Marshal writes it with the
// library's TSerializerPool (a pool of serializers, each a 1 KiB
// TMemoryBuffer and a protocol, reset before each message; the returned
// bytes are a copy the caller owns) and Unmarshal reads it with a
// TDeserializerPool, which copies the input into its buffer first.
//
// The library is pinned to v0.17.0, the release of the compiler that wrote
// package thriftgen (the generated code calls the library of its own
// release). Reading untrusted input relies on the library's own checks:
// the protocols refuse a string, list or map whose length exceeds the
// bytes left in the buffer, and a message larger than
// TConfiguration.MaxMessageSize (100 MiB by default); nesting is bounded
// by the schema, since generated Read methods only descend into the structs
// it declares.
package thrift

//go:generate thrift --gen go:skip_remote,package_prefix=github.com/serbench/serbench/codec/thrift/ -out . ../../schema/thrift/serbench.thrift
//go:generate gofmt -w thriftgen
//go:generate go run github.com/serbench/serbench/internal/gencheck/generate thrift-convert

import (
	"context"
	"fmt"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/serbench/serbench/codec"
)

// IDs of the two codecs.
const (
	BinaryID  = "thrift/binary"
	CompactID = "thrift/compact"
)

const module = "github.com/apache/thrift"

// bufferBytes is the starting size of each pooled serializer's buffer.
const bufferBytes = 1024

// NewBinary returns the "thrift/binary" codec: TBinaryProtocol with the
// library's default configuration (strict reads and writes). It binds the
// five seed scenario types and returns an error wrapping
// codec.ErrUnsupported for any other.
func NewBinary() codec.Codec {
	return newCodec(BinaryID, "Thrift binary protocol", "TBinaryProtocol (strict, the default)",
		thrift.NewTBinaryProtocolFactoryConf(nil))
}

// NewCompact returns the "thrift/compact" codec: TCompactProtocol (zigzag
// varints, field IDs as deltas) with the library's default configuration.
// It binds the five seed scenario types and returns an error wrapping
// codec.ErrUnsupported for any other.
func NewCompact() codec.Codec {
	return newCodec(CompactID, "Thrift compact protocol", "TCompactProtocol",
		thrift.NewTCompactProtocolFactoryConf(nil))
}

func newCodec(id, format, protocol string, f thrift.TProtocolFactory) codec.Codec {
	ser := thrift.NewTSerializerPoolSizeFactory(bufferBytes, f)
	de := thrift.NewTDeserializerPoolSizeFactory(bufferBytes, f)
	ctx := context.Background()
	return codec.Converting[thrift.TStruct]{
		Meta: codec.Info{ID: id, Module: module, Version: codec.ModuleVersion(module),
			LastRelease: "2026-09-24", // v0.25.0, the newest release: go list -m github.com/apache/thrift@latest

			API:    codec.APITyped,
			Format: format, Kind: codec.Codegen, Binary: true,
			Time: "ns, offset kept (zone name lost)",
			Options: "thrift 0.17.0 --gen go structs (schema/thrift/serbench.thrift); " + protocol +
				" through TSerializerPool/TDeserializerPool; time as Unix s + ns + offset (zone name lost); " +
				"uint64 as i64 bits, float32 as double; lists and maps optional (nil kept)",
			Status: "pinned to v0.17.0, the release of Debian 12's thrift compiler, so the generated code matches its library"},
		Convs:   convs,
		Missing: "no struct for %T in schema/thrift/serbench.thrift",
		Marshal: func(m thrift.TStruct) ([]byte, error) {
			data, err := ser.Write(ctx, m)
			if err != nil {
				return nil, fmt.Errorf("%s: marshal %T: %w", id, m, err)
			}
			return data, nil
		},
		Unmarshal: func(data []byte, m thrift.TStruct) error {
			if err := de.Read(ctx, m, data); err != nil {
				return fmt.Errorf("%s: unmarshal %d bytes into %T: %w", id, len(data), m, err)
			}
			return nil
		},
	}
}

// Codecs returns a new instance of each codec this package ships, in
// report order (codec/all holds every shipped codec, codec/defaults the
// default set).
func Codecs() []codec.Codec { return []codec.Codec{NewBinary(), NewCompact()} }
