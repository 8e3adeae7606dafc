package transport_test

import (
	"sync"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/transport"
)

// slowBind wraps a codec whose Bind blocks until release is closed, after
// telling entered (once per call).
type slowBind struct {
	codec.Codec
	entered chan struct{}
	release chan struct{}
}

func (c slowBind) Bind(sample any) (codec.Binding, error) {
	c.entered <- struct{}{}
	<-c.release
	return c.Codec.Bind(sample)
}

// guard fails the test when ch yields nothing for a long while: a
// deadlock guard, not a measurement (the wait is far above any schedule).
func guard[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: nothing after 30s (blocked?)", what)
		panic("unreachable")
	}
}

// While a new stream's codec is still binding, the scheduler keeps
// publishing the streams already running, and a second stream can start:
// Subscribe binds outside the lock the scheduler takes.
func TestSlowBindDoesNotBlockScheduler(t *testing.T) {
	h := newHub(t, transport.Options{})
	running, err := h.Subscribe(request(t, "scenario=sse-event&codec=encoding/json&rate=1000&name=running"))
	if err != nil {
		t.Fatal(err)
	}
	defer running.Close()
	guard(t, running.C, "first message of the running stream")

	slowReq := request(t, "scenario=sse-event&codec=msgpack&rate=1000&name=slow")
	slow := slowBind{Codec: slowReq.Codec, entered: make(chan struct{}, 2), release: make(chan struct{})}
	slowReq.Codec = slow
	var once sync.Once
	release := func() { once.Do(func() { close(slow.release) }) }
	t.Cleanup(release) // before the hub's Close, should the test fail with a Bind blocked
	type result struct {
		sub *transport.Subscription
		err error
	}
	done := make(chan result, 2)
	subscribe := func() {
		sub, err := h.Subscribe(slowReq)
		done <- result{sub, err}
	}
	go subscribe()
	guard(t, slow.entered, "first Bind")

	// The Bind is blocked. The running stream must keep its schedule...
	for range 5 {
		guard(t, running.C, "running stream's message while a Bind blocks")
	}
	// ... a second client of the same new stream must get to bind too...
	go subscribe()
	guard(t, slow.entered, "second Bind")
	// ... and another new stream must start and finish.
	other, err := h.Subscribe(request(t, "scenario=sse-event&codec=cbor&rate=1000&count=3&name=other"))
	if err != nil {
		t.Fatal(err)
	}
	wantSeqs(t, drain(t, other), 0, 3)
	other.Close()

	release()
	var subs []*transport.Subscription
	for range 2 {
		r := guard(t, done, "Subscribe after its Bind returned")
		if r.err != nil {
			t.Fatal(r.err)
		}
		defer r.sub.Close()
		subs = append(subs, r.sub)
	}
	if subs[0].Request.Key() != subs[1].Request.Key() {
		t.Fatal("the two clients asked for different streams")
	}
	// One stream for both: it counts once in the stats, and both get its
	// messages.
	var streams uint64
	for _, cs := range h.Stats("").Codecs {
		if cs.Codec == "msgpack" {
			streams += cs.Streams
		}
	}
	if streams != 1 {
		t.Errorf("msgpack streams %d, want 1 (the slower Bind joins the stream of the faster)", streams)
	}
	for _, sub := range subs {
		guard(t, sub.C, "slow stream's message")
	}
}
