package plan

import (
	"fmt"

	"github.com/serbench/serbench/results"
)

// FromResults builds the options of one scenario from a run's results
// (bench.Matrix, or a saved serbench/v1 document): one per codec that has
// a marshal and an unmarshal result there, times None and every compressor
// in compressors that the run measured ("compress:<id>" and
// "decompress:<id>"). Parallel efficiency is read at min(cores, the most
// goroutines measured) from the results' Parallel points (run -parallel);
// without them it is 0 (taken as 1, Option's doc). A codec that is n/a,
// that loses something in the round trip, or whose timing failed gets an
// Option with Error; so does a compressor the run did not measure for it.
// Parse-only codecs (an OpParse row) and reference rows (no unmarshal) are
// left out.
func FromResults(rows []results.Row, scenario string, compressors []string, cores float64) []Option {
	type cells map[string]results.Row
	by := map[string]cells{}
	var order []string
	for _, r := range rows {
		if r.Scenario != scenario {
			continue
		}
		if by[r.Codec] == nil {
			by[r.Codec] = cells{}
			order = append(order, r.Codec)
		}
		by[r.Codec][r.Op] = r
	}
	g := max(int(cores), 1)
	var out []Option
	for _, id := range order {
		cs := by[id]
		m, okM := cs[results.OpMarshal]
		u, okU := cs[results.OpUnmarshal]
		if _, parse := cs[results.OpParse]; parse || !okM {
			continue
		}
		base := Option{Codec: id, Compressor: None}
		switch {
		case m.NA:
			base.Error = "n/a: " + m.Error
		case !okU:
			continue
		case !m.OK:
			base.Error = "marshal: " + m.Error
		case !u.OK:
			base.Error = "unmarshal: " + u.Error
		}
		if base.Error == "" {
			base.MarshalNs, base.UnmarshalNs = interval(m), interval(u)
			base.PayloadBytes = float64(m.SizeBytes)
			base.EncodedBytes = base.PayloadBytes
			base.RecvAllocBytes = float64(u.BytesPerOp)
			base.SendEfficiency, base.RecvEfficiency = efficiency(m, g), efficiency(u, g)
		}
		out = append(out, base)
		for _, z := range compressors {
			o := base
			o.Compressor = z
			if o.Error != "" {
				out = append(out, o)
				continue
			}
			c, okC := cs[results.OpCompressPrefix+z]
			d, okD := cs[results.OpDecompressPrefix+z]
			switch {
			case !okC || !okD:
				o.Error = fmt.Sprintf("%s not measured for %s (run with -compress %s)", z, id, z)
			case !c.OK:
				o.Error = "compress: " + c.Error
			case !d.OK:
				o.Error = "decompress: " + d.Error
			default:
				o.CompressNs, o.DecompressNs = interval(c), interval(d)
				o.RecvAllocBytes += float64(d.BytesPerOp)
				o.PayloadBytes = float64(c.CompressedBytes)
				o.SendEfficiency = combined(m, c, g)
				o.RecvEfficiency = combined(u, d, g)
			}
			out = append(out, o)
		}
	}
	return out
}

// interval is r's median ns/op with its 95% interval, the median itself
// where a bound is missing (0).
func interval(r results.Row) Interval {
	iv := Point(r.NsPerOp)
	if r.NsPerOpLo > 0 {
		iv.Lo = r.NsPerOpLo
	}
	if r.NsPerOpHi > 0 {
		iv.Hi = r.NsPerOpHi
	}
	return iv
}

// efficiency is r's parallel efficiency with g goroutines (or the most
// measured, if fewer): the CPU time of an operation on one goroutine over
// its CPU time with that many at once (ParallelPoint.CPUNsPerOp), at most
// 1; where CPU time was not recorded, the throughput's scaling over the
// goroutine count. 0 without Parallel points. CPU time is what the
// model's cores count: on a machine whose other cores are taken by other
// processes, goroutines wait for a core without costing more CPU, and
// the throughput's scaling (0.35-0.81 with two goroutines on the 2-vCPU
// VM, docs/plan.md) would charge that wait as cores.
func efficiency(r results.Row, g int) float64 {
	var one, best results.ParallelPoint
	for _, p := range r.Parallel {
		if p.Goroutines == 1 {
			one = p
		}
		if p.Goroutines <= g && p.Goroutines > best.Goroutines {
			best = p
		}
	}
	switch {
	case best.Goroutines == 0:
		return 0
	case one.CPUNsPerOp > 0 && best.CPUNsPerOp > 0:
		return min(one.CPUNsPerOp/best.CPUNsPerOp, 1)
	case best.Scaling <= 0:
		return 0
	}
	return best.Scaling / float64(best.Goroutines)
}

// combined is the efficiency of running a then b on each message: total
// single-goroutine time over the sum of each op's time divided by its own
// efficiency; 0 when neither was measured in parallel.
func combined(a, b results.Row, g int) float64 {
	ea, eb := efficiency(a, g), efficiency(b, g)
	if ea == 0 && eb == 0 {
		return 0
	}
	return (a.NsPerOp + b.NsPerOp) / (a.NsPerOp/eff(ea) + b.NsPerOp/eff(eb))
}
