package serbench

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/derive"
	"github.com/serbench/serbench/results"
)

// UnitSize is the unit of the custom metric Benchmark reports for the
// encoded size of the value, in bytes per message. benchstat shows it as a
// table of its own; serbench show reads it as the size column.
const UnitSize = "B/msg"

// LossyKey is the sub-benchmark key that marks a codec whose round trip
// changed the value: BenchmarkCodecs/codec=gob/lossy=true/op=marshal.
// It stays in every benchstat table, so a fast codec that loses data is
// never read as a plain winner.
const LossyKey = "lossy=true"

// Benchmark round-trips v through the codecs of opts (at most one Options;
// none means the defaults), then times each codec that can take v, as
// sub-benchmarks of b named
//
//	codec=<id>/op=marshal      v to bytes
//	codec=<id>/op=unmarshal    bytes to a new value
//	codec=<id>/op=convert      your value to the codec's own type and back
//	                           (codecs on generated types, such as Proto)
//
// Codec IDs are escaped for benchmark names ("sonic/default" is written
// "sonic.default"). Each sub-benchmark reports ns/op, MB/s of encoded bytes,
// B/op and allocs/op (always, as with -benchmem) and the encoded size as the
// custom metric UnitSize.
//
// A codec whose round trip changes v is timed with LossyKey before op= in
// its names, and the first difference is logged as a line
// `// serbench: fail <name>: <difference>` that serbench show reads back.
// A codec that cannot take v is skipped (b.Skip) with the reason, logged
// likewise as `// serbench: n/a`. A codec that panics is a failure of its
// own sub-benchmark only. A required codec (Options.Require) that is lossy
// or cannot take v fails b. Invalid options or an unusable v (see
// Fidelity) fail b with b.Fatal. The first timed sub-benchmark logs the
// schema-tightening hints of v as Check does, with proto.Marshal's ns/op
// before and after each change from a HintBudget loop. With Options.LiveHeap set, the
// sub-benchmarks run with the live heap raised to it, and b logs the live
// heap measured before timing.
func Benchmark(b *testing.B, v any, opts ...Options) {
	b.Helper()
	o, err := one(opts)
	if err != nil {
		b.Fatal(err)
	}
	f, err := o.Fidelity(v)
	if err != nil {
		b.Fatal(err)
	}
	// Logged from the first timed sub-benchmark: go test prints a parent
	// benchmark's log only with -v.
	hints := ""
	if sample, err := sampleOf(v); err == nil {
		hints = hintsText(sample, HintBudget, derive.Options{Skip: o.Skip})
	}
	if o.LiveHeap > 0 {
		heap := bench.HoldLiveHeap(o.LiveHeap)
		defer heap.Release()
		b.Logf("serbench: live heap %d bytes (own %d, Options.LiveHeap %d)", heap.Live, heap.Own, heap.Target)
	}
	timed := 0
	for _, x := range f {
		b.Run("codec="+codec.EscapeID(x.Codec), func(b *testing.B) {
			base := strings.TrimPrefix(b.Name(), "Benchmark")
			switch x.Status {
			case NA, Error:
				for _, op := range []string{results.OpMarshal, results.OpUnmarshal} {
					b.Log(results.Note(results.NoteNA, base+"/op="+op, x.Err.Error()))
				}
				if x.Required {
					b.Fatalf("serbench: required codec %s cannot take %T: %v", x.Codec, v, x.Err)
				}
				b.Skipf("serbench: %s cannot take %T: %v", x.Codec, v, x.Err)
			case Lossy:
				if x.Required {
					b.Errorf("serbench: required codec %s does not round-trip %T: %v", x.Codec, v, x.Err)
				}
				b.Run(LossyKey, func(b *testing.B) { runOps(b, x, &hints) })
			default:
				runOps(b, x, &hints)
			}
		})
		if !untimed(x.Status) {
			timed++
		}
	}
	if timed == 0 {
		b.Skipf("serbench: none of the %d codecs can take %T; the reasons are logged above", len(f), v)
	}
}

// runOps times each operation of a codec as a sub-benchmark op=<name>.
// A non-empty *hints is logged from the first and then cleared.
func runOps(b *testing.B, x Finding, hints *string) {
	for _, op := range x.ops {
		logged := false
		b.Run("op="+op.Name, func(b *testing.B) {
			defer func() {
				if r := recover(); r != nil {
					b.Fatalf("serbench: %s %s panicked: %v", x.Codec, op.Name, r)
				}
			}()
			b.ReportAllocs()
			if op.Name != results.OpConvert && op.Size > 0 {
				b.SetBytes(int64(op.Size))
			}
			if err := op.Run(b.N); err != nil {
				b.Fatalf("serbench: %s %s: %v", x.Codec, op.Name, err)
			}
			if op.Name != results.OpConvert {
				b.ReportMetric(float64(op.Size), UnitSize)
			}
			if *hints != "" {
				b.Logf("%s", *hints)
				*hints = ""
			}
			if x.Status == Lossy && !logged {
				// Logged from the timed sub-benchmark, whose log go test
				// prints after its result line even without -v, and
				// once: testing calls this function several times (b.N
				// = 1 first, then larger) and keeps all their logs.
				logged = true
				b.Log(results.Note(results.NoteFail, strings.TrimPrefix(b.Name(), "Benchmark"), x.Err.Error()))
			}
		})
	}
}
