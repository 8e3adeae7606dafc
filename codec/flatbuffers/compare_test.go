package flatbuffers_test

import (
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/easyjson"
	"github.com/serbench/serbench/codec/ffjson"
	"github.com/serbench/serbench/codec/flatbuffers"
	"github.com/serbench/serbench/codec/msgp"
	"github.com/serbench/serbench/codec/stdjson"
	"github.com/serbench/serbench/scenario"
)

// BenchmarkCodec compares the codegen codecs with the encoding/json baseline
// on two seeds, named for benchstat: Codec/codec=ID/scenario=ID/op=marshal.
// Conversion to the codec's own types happens before the timer starts. The
// encoded-B metric is the size of one encoded value in bytes.
//
// The published figure this reproduces in shape (docs/reference.md, "Measurements"): user-profile
// decode, JSON 10186 ns/op and 56 allocs/op, FlatBuffers 384 ns/op and 0
// allocs/op.
//
//	go test ./codec/flatbuffers -run '^$' -bench Codec -benchmem -count 3
func BenchmarkCodec(b *testing.B) {
	codecs := []codec.Codec{stdjson.New(), easyjson.New(), ffjson.New(), msgp.New(), flatbuffers.New(), flatbuffers.NewLazy()}
	seeds, err := scenario.Select(scenario.Seeds(), []string{"user-profile", "sse-event"})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range codecs {
		for _, s := range seeds {
			bind, err := c.Bind(s.Value())
			if err != nil {
				b.Fatal(err)
			}
			in := s.Value()
			if conv, ok := bind.(codec.Converter); ok {
				if in, err = conv.ToNative(in); err != nil {
					b.Fatal(err)
				}
			}
			data, err := bind.Marshal(in)
			if err != nil {
				b.Fatal(err)
			}
			name := "codec=" + c.Info().ID + "/scenario=" + s.ID
			b.Run(name+"/op=marshal", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					if _, err := bind.Marshal(in); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(data)), "encoded-B")
			})
			b.Run(name+"/op=unmarshal", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					if _, err := bind.Unmarshal(data); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(data)), "encoded-B")
			})
		}
	}
}
