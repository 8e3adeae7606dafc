package bench

import (
	"strings"
	"testing"
)

func TestParseLiveHeap(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		err  string
	}{
		{"0", 0, ""},
		{"64MiB", 64 << 20, ""},
		{"1GiB", 1 << 30, ""},
		{"1500", 1500, ""},
		{"16GiB", MaxLiveHeap, ""},
		{"17GiB", 0, `"17GiB" (range is [0, 16GiB])`},
		{"-1", 0, `invalid size "-1"`},
		{"64 potatoes", 0, `invalid size "64 potatoes"`},
		{"99999999999999GiB", 0, "too large"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseLiveHeap(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseLiveHeap(%q) = %d, %v; want an error with %q", tc.in, got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ParseLiveHeap(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
			}
		})
	}
}

func TestHoldLiveHeap(t *testing.T) {
	const target = 48 << 20
	h := HoldLiveHeap(target)
	if h.Target != target || h.Own <= 0 || h.Ballast != target-h.Own {
		t.Fatalf("HoldLiveHeap(%d) = target %d, own %d, ballast %d", target, h.Target, h.Own, h.Ballast)
	}
	// The collections may free a little of the process's own heap between
	// the two readings; never the ballast.
	if h.Live < target-h.Own/2 {
		t.Errorf("live heap with the ballast %d, want about %d", h.Live, target)
	}
	h.Release()
	if after := LiveHeapBytes(); after > h.Live-h.Ballast/2 {
		t.Errorf("live heap after Release %d, want about %d", after, h.Live-h.Ballast)
	}
	if h := HoldLiveHeap(0); h.Ballast != 0 || h.Live <= 0 {
		t.Errorf("HoldLiveHeap(0) = ballast %d, live %d; want no ballast and a live heap", h.Ballast, h.Live)
	}
}

func TestOptionsLiveHeapRange(t *testing.T) {
	for _, n := range []int64{-1, MaxLiveHeap + 1} {
		if _, err := (Options{LiveHeap: n}).Effective(); err == nil || !strings.Contains(err.Error(), "LiveHeap") {
			t.Errorf("Options{LiveHeap: %d}.Effective() error %v, want one naming LiveHeap", n, err)
		}
	}
}

func TestLiveHeapWarning(t *testing.T) {
	for _, tc := range []struct {
		h    LiveHeap
		warn bool
	}{
		{LiveHeap{Target: 0, Own: 50 << 20}, false},
		{LiveHeap{Target: 64 << 20, Own: 40 << 20}, false},
		{LiveHeap{Target: 64 << 20, Own: 80 << 20}, true},
	} {
		w := tc.h.Warning()
		if (w != "") != tc.warn || (tc.warn && !strings.Contains(w, "83886080")) {
			t.Errorf("LiveHeap{Target: %d, Own: %d}.Warning() = %q, want a warning: %v", tc.h.Target, tc.h.Own, w, tc.warn)
		}
	}
}
