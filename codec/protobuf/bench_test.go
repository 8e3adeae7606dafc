package protobuf_test

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/stdjson"
	"github.com/serbench/serbench/scenario"
)

// BenchmarkCodec compares the three Protocol Buffers codecs with the
// encoding/json baseline on every seed scenario, named in benchstat's
// key=value style: Codec/codec=protobuf/scenario=ws-message/op=marshal.
// A "/" in a codec ID becomes "_" (codec=encoding_json). op=convert, for the
// codegen codecs, is ToNative followed by FromNative of the decoded message.
// Compare codecs as ratios within one run, e.g.
//
//	go test -run '^$' -bench 'Codec/.*/scenario=(ws-message|user-profile)' -benchmem -count 3 ./codec/protobuf
func BenchmarkCodec(b *testing.B) {
	all := append([]codec.Codec{stdjson.New()}, codecs...)
	for _, c := range all {
		name := "codec=" + strings.ReplaceAll(c.Info().ID, "/", "_")
		b.Run(name, func(b *testing.B) {
			for _, s := range scenario.Seeds() {
				b.Run("scenario="+s.ID, func(b *testing.B) { benchOne(b, c, s.Value()) })
			}
		})
	}
}

func benchOne(b *testing.B, c codec.Codec, v any) {
	bind, err := c.Bind(v)
	if err != nil {
		b.Fatal(err)
	}
	conv, isConv := bind.(codec.Converter)
	in := v
	if isConv {
		if in, err = conv.ToNative(v); err != nil {
			b.Fatal(err)
		}
	}
	data, err := bind.Marshal(in)
	if err != nil {
		b.Fatal(err)
	}
	decoded, err := bind.Unmarshal(data)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("op=marshal", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := bind.Marshal(in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("op=unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := bind.Unmarshal(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	if !isConv {
		return
	}
	b.Run("op=convert", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := conv.ToNative(v); err != nil {
				b.Fatal(err)
			}
			if _, err := conv.FromNative(decoded); err != nil {
				b.Fatal(err)
			}
		}
	})
}
