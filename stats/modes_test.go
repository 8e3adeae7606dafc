package stats_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/serbench/serbench/stats"
)

// normalGrid returns n samples spread as a normal distribution around
// center with the relative standard deviation sd: its quantiles at
// (i+0.5)/n, so the test needs no random numbers.
func normalGrid(n int, center, sd float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		z := math.Sqrt2 * math.Erfinv(2*(float64(i)+0.5)/float64(n)-1)
		xs[i] = center * (1 + sd*z)
	}
	return xs
}

// interleave mixes a and b as a sampler would take them, alternating
// while both last.
func interleave(a, b []float64) []float64 {
	out := make([]float64, 0, len(a)+len(b))
	for i := 0; i < max(len(a), len(b)); i++ {
		if i < len(a) {
			out = append(out, a[i])
		}
		if i < len(b) {
			out = append(out, b[i])
		}
	}
	return out
}

func repeat(x float64, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = x
	}
	return xs
}

func TestDetectModes(t *testing.T) {
	twoClusters := interleave(normalGrid(22, 8000, 0.05), normalGrid(18, 14400, 0.05))
	withBad := func(bad float64) []float64 {
		xs := slices.Clone(twoClusters)
		xs[7] = bad
		return xs
	}
	for _, tc := range []struct {
		name    string
		samples []float64
		want    *stats.Modes // nil: none
	}{
		{"two clusters 1.8x apart, 55/45", twoClusters, &stats.Modes{FastNs: 8000, SlowNs: 14400, SlowShare: 0.45, Ratio: 1.8}},
		{"two clusters with 10% spread each", interleave(normalGrid(20, 8000, 0.10), normalGrid(20, 14400, 0.10)), &stats.Modes{FastNs: 8000, SlowNs: 14400, SlowShare: 0.5, Ratio: 1.8}},
		{"slow cluster of exactly the minimum share", append(normalGrid(36, 10000, 0.03), repeat(20000, 4)...), &stats.Modes{FastNs: 10000, SlowNs: 20000, SlowShare: 0.1, Ratio: 2}},
		{"two clusters of no spread", append(repeat(100, 5), repeat(150, 5)...), &stats.Modes{FastNs: 100, SlowNs: 150, SlowShare: 0.5, Ratio: 1.5}},
		{"unimodal, 5% spread", normalGrid(40, 10000, 0.05), nil},
		{"unimodal, 10% spread", normalGrid(40, 10000, 0.10), nil},
		{"unimodal, 10% spread, 10 samples", normalGrid(10, 10000, 0.10), nil},
		{"right-skewed: 2 of 40 three times slower", append(normalGrid(38, 10000, 0.05), 30000, 31000), nil},
		{"3 of 40 slower: below the minimum share", append(normalGrid(37, 10000, 0.03), repeat(20000, 3)...), nil},
		{"clusters 1.1x apart", interleave(normalGrid(20, 10000, 0.005), normalGrid(20, 11000, 0.005)), nil},
		{"two clusters in 9 samples", append(repeat(100, 4), repeat(200, 5)...), nil},
		{"identical samples", repeat(537, 20), nil},
		{"empty", nil, nil},
		{"a NaN", withBad(math.NaN()), nil},
		{"a zero", withBad(0), nil},
		{"a negative", withBad(-8000), nil},
		{"an infinity", withBad(math.Inf(1)), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.samples)
			got := stats.DetectModes(tc.samples)
			if !slices.Equal(in, tc.samples) && !slices.ContainsFunc(in, math.IsNaN) {
				t.Error("DetectModes changed its input")
			}
			switch {
			case tc.want == nil && got != nil:
				t.Fatalf("got %+v, want nil", *got)
			case tc.want != nil && got == nil:
				t.Fatal("got nil, want two modes")
			case tc.want == nil:
				return
			}
			near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Abs(b) }
			if !near(got.FastNs, tc.want.FastNs) || !near(got.SlowNs, tc.want.SlowNs) ||
				!near(got.SlowShare, tc.want.SlowShare) || !near(got.Ratio, tc.want.Ratio) {
				t.Errorf("got %+v, want %+v", *got, *tc.want)
			}
			// The order of the samples does not matter.
			rev := slices.Clone(tc.samples)
			slices.Reverse(rev)
			if r := stats.DetectModes(rev); r == nil || *r != *got {
				t.Errorf("reversed samples give %+v, want %+v", r, *got)
			}
		})
	}
}

// FuzzDetectModes checks that DetectModes never panics and that what
// it finds is consistent. The input's first byte picks how the rest is
// read: even, as uint16 values (1 to 65536 ns), which often form
// clusters; odd, as raw float64 bits, which include NaN, ±Inf, zero and
// negative values.
func FuzzDetectModes(f *testing.F) {
	grid := func(xs []float64) []byte {
		b := []byte{0}
		for _, x := range xs {
			b = binary.LittleEndian.AppendUint16(b, uint16(x-1))
		}
		return b
	}
	f.Add(grid(interleave(normalGrid(22, 8000, 0.05), normalGrid(18, 14400, 0.05))))
	f.Add(grid(normalGrid(40, 10000, 0.10)))
	f.Add(grid(append(repeat(100, 5), repeat(150, 5)...)))
	raw := []byte{1}
	for _, x := range []float64{1, 2, math.NaN(), 0, -1, math.Inf(1), 3, 4, 5, 6, 7} {
		raw = binary.LittleEndian.AppendUint64(raw, math.Float64bits(x))
	}
	f.Add(raw)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		var xs []float64
		if data[0]&1 == 0 {
			for b := data[1:]; len(b) >= 2; b = b[2:] {
				xs = append(xs, 1+float64(binary.LittleEndian.Uint16(b)))
			}
		} else {
			for b := data[1:]; len(b) >= 8; b = b[8:] {
				xs = append(xs, math.Float64frombits(binary.LittleEndian.Uint64(b)))
			}
		}
		r := stats.DetectModes(xs)
		if r == nil {
			return
		}
		if len(xs) < stats.MinModeSamples {
			t.Fatalf("%d samples gave %+v", len(xs), *r)
		}
		if !(r.FastNs > 0 && r.FastNs <= r.SlowNs && !math.IsInf(r.SlowNs, 0)) {
			t.Fatalf("fast %v, slow %v", r.FastNs, r.SlowNs)
		}
		if !(r.SlowShare >= stats.MinModeShare && r.SlowShare <= 1-stats.MinModeShare) {
			t.Fatalf("slow share %v", r.SlowShare)
		}
		if !(r.Ratio >= stats.MinModeRatio) || math.Abs(r.Ratio-r.SlowNs/r.FastNs) > 1e-12*r.Ratio {
			t.Fatalf("ratio %v, slow/fast %v", r.Ratio, r.SlowNs/r.FastNs)
		}
	})
}

func ExampleDetectModes() {
	// A codec that ran at 8.3 µs while the sibling hyperthread was idle
	// and at about 14.5 µs while it was busy.
	samples := []float64{8271, 14535, 8190, 14610, 8305, 14402, 8250, 8330, 14488, 14560, 8212, 14390}
	r := stats.DetectModes(samples)
	fmt.Printf("fast %.0f ns, slow %.0f ns (%.0f%% of samples), %.2fx\n", r.FastNs, r.SlowNs, 100*r.SlowShare, r.Ratio)
	// Output: fast 8260 ns, slow 14512 ns (50% of samples), 1.76x
}
