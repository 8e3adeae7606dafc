//go:build !wirefuzz

// The wirefuzz tag leaves this file out so fuzzing binaries do not link
// (and coverage-instrument) every codec in codec/all, which slows each
// fuzz execution several times over; scripts/fuzz.sh sets it.

package wire_test

import (
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/scenario"
)

// BenchmarkCodec times Marshal and Unmarshal of every codec in codec/all on
// every seed scenario, calling the Binding directly (sub-benchmarks named
// codec=X/scenario=Y/op=marshal|unmarshal, for benchstat). Converters convert
// outside the timed loop. Cells a codec cannot bind or marshal are skipped
// (logged); cells that do not round-trip are left to codec/all's test.
//
//	go test -run='^$' -bench . -benchmem -count 3 ./codec/wire
func BenchmarkCodec(b *testing.B) {
	for _, c := range all.Registry().All() {
		for _, s := range scenario.Seeds() {
			prefix := "codec=" + c.Info().ID + "/scenario=" + s.ID
			v := s.Value()
			bd, err := c.Bind(v)
			if err != nil {
				continue
			}
			in := v
			if conv, ok := bd.(codec.Converter); ok {
				if in, err = conv.ToNative(v); err != nil {
					b.Fatalf("%s: %v", prefix, err)
				}
			}
			data, err := bd.Marshal(in)
			if err != nil {
				// A known failure of the codec on this seed (bson cannot
				// hold user-event's uint64 above 2^63-1): codec/all's test
				// checks those; there is nothing to time.
				b.Logf("%s: not timed: %v", prefix, err)
				continue
			}
			data = append([]byte(nil), data...) // reuse codecs own their buffer
			b.Run(prefix+"/op=marshal", func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := bd.Marshal(in); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(prefix+"/op=unmarshal", func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := bd.Unmarshal(data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
