package transport_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/serbench/serbench/transport"
)

// Message.Shared gives every caller with the same key the one value kept,
// built once however many call at once, keeps a form per key up to its
// limit, and past it builds afresh, keeping nothing.
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
	if n := builds.Load(); n != 1 {
		t.Errorf("%d builds for %d callers of one key, want 1", n, len(got))
	}
	before := builds.Load()
	other := m.Shared(2, build)
	if other == got[0] || builds.Load() != before+1 {
		t.Errorf("another key: %v (kept %v), %d builds", other, got[0], builds.Load()-before)
	}
	if again := m.Shared("k", build); again != got[0] || builds.Load() != before+1 {
		t.Errorf("the first key after another: %v, want %v", again, got[0])
	}
	if again := m.Shared(2, build); again != other || builds.Load() != before+1 {
		t.Errorf("the second key again: %v, want %v kept", again, other)
	}
	for k := 3; k <= 5; k++ { // two more are kept (four in all), then none
		m.Shared(k, build)
	}
	before = builds.Load()
	if a, b := m.Shared(5, build), m.Shared(5, build); a == b || builds.Load() != before+2 {
		t.Errorf("a fifth key: %v then %v, %d builds; want two builds, nothing kept", a, b, builds.Load()-before)
	}
}
