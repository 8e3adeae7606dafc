package report

import (
	"testing"

	"github.com/serbench/serbench/env"
)

func TestLiveHeapLine(t *testing.T) {
	for _, tc := range []struct {
		h    *env.LiveHeap
		want string
	}{
		{nil, ""},
		{&env.LiveHeap{TargetBytes: 64 << 20, OwnBytes: 3 << 20, LiveHeapBytes: 64 << 20},
			"GC condition: live heap 64.0 MiB before timing (-live-heap: raised to 64.0 MiB with a ballast; serbench's own 3.0 MiB)"},
		{&env.LiveHeap{OwnBytes: 42 << 20, LiveHeapBytes: 42 << 20},
			"GC condition: live heap 42.0 MiB before timing (-live-heap: no ballast; serbench's own 42.0 MiB)"},
	} {
		if got := liveHeapLine(tc.h); got != tc.want {
			t.Errorf("liveHeapLine(%+v) = %q, want %q", tc.h, got, tc.want)
		}
	}
}
