package bench

import (
	"fmt"
	"runtime"
	"runtime/metrics"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/scenario"
)

// The live heap is the GC condition of a run. The Go collector starts a
// cycle when the heap reaches its goal, GOGC percent above the heap that
// was live after the previous cycle; so the live heap of the process sets
// how often an allocating codec pays for a collection. A plain `go test`
// benchmark keeps almost nothing alive, a real server keeps its caches and
// sessions, and serbench keeps every selected scenario's value and its
// encodings: the same loop sees a different GC rhythm in each. goccy/go-json's
// benchmark suite measures each library with and without a 64 MiB live heap
// for this reason (benchmarks/live_heap_test.go in that repository, which
// allocates a ballast of BENCH_LIVE_HEAP_MB megabytes). serbench states the
// condition instead of leaving it to chance: Options.LiveHeap, `serbench
// run -live-heap`, serbench.Options.LiveHeap and `serbench export
// -live-heap` (the exported loops read SERBENCH_LIVE_HEAP) all raise the
// live heap to the same size during timing.

// DefaultLiveHeap is the live heap `serbench run` and `serbench export`
// time under unless -live-heap says otherwise: 64 MiB. serbench's own live
// heap with the default matrix (every default codec on every built-in
// scenario) measures about 42 MiB once its cells are prepared, so "none"
// cannot be had there while a plain loop keeps under 1 MiB and collects
// every ~3 MiB allocated; 64 MiB is the round size above serbench's own, so
// both run at one GC rhythm whatever the selection, and it is the size
// goccy/go-json's suite uses. Options.LiveHeap's zero value is no ballast.
const DefaultLiveHeap = 64 << 20

// MaxLiveHeap caps Options.LiveHeap: 16 GiB, within the memory of the
// machines serbench is measured on.
const MaxLiveHeap = 16 << 30

// LiveHeapVar is the environment variable the loops of `serbench export`
// read for their live heap, in ParseLiveHeap's syntax.
const LiveHeapVar = "SERBENCH_LIVE_HEAP"

// ParseLiveHeap reads a live-heap size as -live-heap takes it: "0" (no
// ballast, as little live heap as possible) or a size such as "64MiB" (see
// scenario.ParseSize). A size above MaxLiveHeap is an error naming it.
func ParseLiveHeap(s string) (int64, error) {
	n, err := scenario.ParseSize(s)
	if err != nil {
		return 0, fmt.Errorf("bench: invalid live heap: %w", err)
	}
	if n > MaxLiveHeap {
		return 0, fmt.Errorf("bench: invalid live heap %q (range is [0, %dGiB])", s, MaxLiveHeap>>30)
	}
	return n, nil
}

// LiveHeapBytes runs two garbage collections and returns the heap that
// survived them, in bytes (runtime/metrics /gc/heap/live:bytes, Go 1.21
// and later; 0 where the metric is missing). Two, because a sync.Pool's
// objects survive one collection in its victim cache.
func LiveHeapBytes() int64 {
	runtime.GC()
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// LiveHeap is the GC condition a run was timed under.
type LiveHeap struct {
	// Target is the live heap asked for, in bytes (Options.LiveHeap); 0
	// asks for none beyond the process's own.
	Target int64
	// Own is the live heap measured before the ballast was allocated: the
	// process's own resident data (for Measure, the selected scenarios,
	// their encodings and the codecs' caches), in bytes.
	Own int64
	// Ballast is what was allocated to reach Target: Target minus Own,
	// or 0 when Own is already above it, in bytes.
	Ballast int64
	// Live is the live heap measured with the ballast in place, just
	// before timing, in bytes.
	Live int64
	// ballast is the pointer-free block that keeps Live up; the collector
	// counts it towards the heap goal without scanning it.
	ballast []byte
}

// HoldLiveHeap measures the live heap and, when target is above it,
// allocates a ballast that brings it up to target. The ballast stays live
// until Release. target is in bytes, in [0, MaxLiveHeap] (checked by
// Options.Effective and ParseLiveHeap; a value outside is clamped).
func HoldLiveHeap(target int64) *LiveHeap {
	target = min(max(target, 0), MaxLiveHeap)
	h := &LiveHeap{Target: target, Own: LiveHeapBytes()}
	if h.Own < target {
		h.Ballast = target - h.Own
		h.ballast = make([]byte, h.Ballast)
	}
	h.Live = LiveHeapBytes()
	return h
}

// Release drops the ballast: the live heap returns to the process's own.
// It keeps the ballast reachable up to the call, so it must be called
// (deferred) after timing.
func (h *LiveHeap) Release() {
	runtime.KeepAlive(h.ballast)
	h.ballast = nil
}

// Warning returns a sentence when the process's own live heap was above
// the target, so the run was timed under a larger live heap than asked
// for; "" otherwise.
func (h LiveHeap) Warning() string {
	if h.Target == 0 || h.Own <= h.Target {
		return ""
	}
	return fmt.Sprintf("live heap: serbench's own live heap (%d bytes: the selected scenarios and their encodings) is above -live-heap %d, so the run was timed with the larger one; select fewer scenarios or raise -live-heap to compare with a plain go test loop under %d bytes", h.Own, h.Target, h.Target)
}

// Env returns h as a run document records it.
func (h LiveHeap) Env() *env.LiveHeap {
	return &env.LiveHeap{TargetBytes: h.Target, OwnBytes: h.Own, LiveHeapBytes: h.Live}
}

// condition returns h's figures without the ballast, for a report.
func (h *LiveHeap) condition() LiveHeap {
	c := *h
	c.ballast = nil
	return c
}
