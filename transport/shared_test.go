package transport_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/serbench/serbench/transport"
)

// Message.Shared gives every caller with the same key the one value kept
// (built by the first callers), and builds afresh, keeping nothing, for
// another key.
func TestMessageShared(t *testing.T) {
	var m transport.Message
	var builds atomic.Int32
	build := func() any { return new(int32(builds.Add(1))) }
	got := make([]any, 16)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = m.Shared("k", build) })
	}
	wg.Wait()
	for i := range got {
		if got[i] != got[0] {
			t.Fatalf("caller %d got %v, caller 0 %v: not the one kept", i, got[i], got[0])
		}
	}
	if n := builds.Load(); n < 1 || n > int32(len(got)) {
		t.Errorf("%d builds", n)
	}
	before := builds.Load()
	other := m.Shared(2, build)
	if other == got[0] || builds.Load() != before+1 {
		t.Errorf("another key: %v (kept %v), %d builds", other, got[0], builds.Load()-before)
	}
	if again := m.Shared("k", build); again != got[0] || builds.Load() != before+1 {
		t.Errorf("the first key after another: %v, want %v", again, got[0])
	}
}
