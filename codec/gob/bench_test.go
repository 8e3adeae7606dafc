package gob_test

import (
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/gob"
	"github.com/serbench/serbench/scenario"
)

// BenchmarkStream measures what a gob stream's first message costs next to
// its later ones and to per-message gob, per seed scenario: mode=first
// starts a stream (FirstMessage: a new Binding, its preamble of descriptors
// and value, then one later message; size is the preamble's), mode=steady
// encodes on a warm stream, mode=per-message is the gob codec. The size
// metric is the message length in bytes.
func BenchmarkStream(b *testing.B) {
	for _, s := range scenario.Seeds() {
		v := s.Value()
		b.Run("scenario="+s.ID+"/mode=first", func(b *testing.B) {
			var n int
			for b.Loop() {
				first, _, err := gob.FirstMessage(v)
				if err != nil {
					b.Fatal(err)
				}
				n = len(first)
			}
			b.ReportMetric(float64(n), "size")
		})
		for _, c := range []codec.Codec{gob.NewStream(), gob.New()} {
			mode := "steady"
			if c.Info().ID == gob.ID {
				mode = "per-message"
			}
			b.Run("scenario="+s.ID+"/mode="+mode, func(b *testing.B) {
				bd, err := c.Bind(v)
				if err != nil {
					b.Fatal(err)
				}
				var data []byte
				if data, err = bd.Marshal(v); err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					if data, err = bd.Marshal(v); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(data)), "size")
			})
		}
	}
}
