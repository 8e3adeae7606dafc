package serbench_test

import (
	"encoding/json"
	"flag"
	"runtime/metrics"
	"testing"

	"github.com/serbench/serbench"
	"github.com/serbench/serbench/codec"
)

// TestBenchmarkLiveHeap runs Benchmark with Options.LiveHeap under
// testing.Benchmark, with a codec that reads the live heap the last
// collection left each time it marshals: at the last (timed) marshal it is
// at least the size asked for with the ballast, and below it without.
func TestBenchmarkLiveHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a benchmark (-short)")
	}
	const target = 48 << 20
	// A few hundred operations per sub-benchmark, not a second's worth.
	bt := flag.Lookup("test.benchtime")
	old := bt.Value.String()
	if err := bt.Value.Set("300x"); err != nil {
		t.Fatal(err)
	}
	defer bt.Value.Set(old)
	for _, tc := range []struct {
		liveHeap int64
		above    bool
	}{{target, true}, {0, false}} {
		var last, most uint64
		c := codec.Funcs{
			Meta: codec.Info{ID: "live-heap-probe", Format: "JSON"},
			Marshal: func(v any) ([]byte, error) {
				s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
				metrics.Read(s)
				last = s[0].Value.Uint64()
				most = max(most, last)
				return json.Marshal(v)
			},
			Unmarshal: json.Unmarshal,
		}
		v := &struct{ N int }{N: 1}
		testing.Benchmark(func(b *testing.B) {
			serbench.Benchmark(b, v, serbench.Options{Codecs: []string{}, Extra: []codec.Codec{c}, LiveHeap: tc.liveHeap})
		})
		if last == 0 {
			t.Fatalf("LiveHeap %d: the probe codec never marshalled", tc.liveHeap)
		}
		if tc.above && last < target {
			t.Errorf("LiveHeap %d: live heap %d during the benchmark, want at least %d", tc.liveHeap, last, target)
		}
		if !tc.above && most >= target {
			t.Errorf("LiveHeap 0: live heap %d during the benchmark, want no ballast (below %d)", most, target)
		}
	}
}
