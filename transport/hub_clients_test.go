package transport_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/transport"
)

// from returns the request of query q from client id.
func from(t *testing.T, id, q string) transport.Request {
	t.Helper()
	req := request(t, q)
	req.Client = id
	return req
}

// Each client's streams, subscriptions and rate are capped by its share,
// and a refusal names the share, its flag and the client's use; another
// client is not affected.
func TestClientShares(t *testing.T) {
	h := newHub(t, transport.Options{MaxClientStreams: 2, MaxClientSubscribers: 3, MaxClientRate: 100})
	sub := func(id, q string) (*transport.Subscription, error) {
		s, err := h.Subscribe(from(t, id, q))
		if err == nil {
			t.Cleanup(s.Close)
		}
		return s, err
	}
	for _, name := range []string{"a1", "a2"} {
		if _, err := sub("10.0.0.1", "scenario=ws-message&codec=encoding/json&rate=10&stream="+name); err != nil {
			t.Fatal(err)
		}
	}
	_, err := sub("10.0.0.1", "scenario=ws-message&codec=encoding/json&rate=10&stream=a3")
	if !errors.Is(err, transport.ErrTooManyStreams) || !strings.Contains(err.Error(), "client 10.0.0.1 created 2 live streams") || !strings.Contains(err.Error(), "-max-client-streams") {
		t.Fatalf("third stream of one client: %v", err)
	}
	if _, err := sub("10.0.0.2", "scenario=ws-message&codec=encoding/json&rate=10&stream=b1"); err != nil {
		t.Fatalf("another client's stream: %v", err)
	}
	// Joining a stream creates none: the share of subscriptions applies.
	if _, err := sub("10.0.0.1", "scenario=ws-message&codec=encoding/json&rate=10&stream=b1"); err != nil {
		t.Fatalf("joining another client's stream: %v", err)
	}
	_, err = sub("10.0.0.1", "scenario=ws-message&codec=encoding/json&rate=10&stream=b1")
	if !errors.Is(err, transport.ErrTooManySubscribers) || !strings.Contains(err.Error(), "client 10.0.0.1 has 3 open") || !strings.Contains(err.Error(), "-max-client-subscribers") {
		t.Fatalf("fourth subscription of one client: %v", err)
	}
	_, err = sub("10.0.0.2", "scenario=ws-message&codec=encoding/json&rate=95&stream=b2")
	if !errors.Is(err, transport.ErrOverBudget) || !strings.Contains(err.Error(), "client 10.0.0.2 holds 10 of its 100 messages/s") || !strings.Contains(err.Error(), "-max-client-rate") {
		t.Fatalf("over one client's rate: %v", err)
	}
}

// A subscription to a stream whose start is ahead holds no rate until the
// start, so it keeps no one else out meanwhile; at the start, with the
// budget taken, it ends with ErrOverBudget instead of exceeding it. And
// start= is part of the stream's identity: the same stream= with another
// start is another stream.
func TestDeferredStart(t *testing.T) {
	h := newHub(t, transport.Options{MaxTotalRate: 100})
	ahead := from(t, "10.0.0.1", "scenario=ws-message&codec=encoding/json&rate=100&stream=s")
	ahead.Start = time.Now().Add(300 * time.Millisecond)
	early, err := h.Subscribe(ahead)
	if err != nil {
		t.Fatal(err)
	}
	defer early.Close()
	if n, rate := h.Subscribers(); n != 1 || rate != 0 {
		t.Fatalf("before its start: Subscribers() = %d, %g; want 1, 0", n, rate)
	}
	now, err := h.Subscribe(from(t, "10.0.0.2", "scenario=ws-message&codec=encoding/json&rate=100&stream=s"))
	if err != nil {
		t.Fatalf("the whole budget, taken while the other waits for its start: %v", err)
	}
	defer now.Close()
	if h.Streams() != 2 {
		t.Errorf("%d streams, want 2: start= is part of the stream's key", h.Streams())
	}
	guard(t, early.Done(), "the deferred subscription's end")
	if err := early.Err(); !errors.Is(err, transport.ErrOverBudget) || !strings.Contains(err.Error(), "at the stream's start") {
		t.Fatalf("deferred subscription ended with %v, want ErrOverBudget at its start", err)
	}
	early.Close() // what a handler does when Done is closed
	if n, rate := h.Subscribers(); n != 1 || rate != 100 {
		t.Errorf("after the start: Subscribers() = %d, %g; want 1, 100", n, rate)
	}
}

// Replay buffers keep at most MaxStreamReplayBytes of payload per stream
// and MaxReplayBytes over all streams, the newest messages, in order; a
// stream retired gives its bytes back.
func TestReplayBytes(t *testing.T) {
	h := newHub(t, transport.Options{ReplayLen: 1000, MaxStreamReplayBytes: 2000, MaxReplayBytes: 3000, Linger: time.Millisecond})
	lens := map[string][]int{}
	for _, name := range []string{"a", "b"} {
		sub, err := h.Subscribe(request(t, "scenario=ws-message&codec=encoding/json&rate=10000&count=100&stream="+name))
		if err != nil {
			t.Fatal(err)
		}
		for m := range sub.C {
			lens[name] = append(lens[name], len(m.Payload))
		}
		req := request(t, "scenario=ws-message&codec=encoding/json&rate=10000&count=100&stream="+name)
		req.LastEventID = 0
		again, err := h.Subscribe(req)
		if err != nil {
			t.Fatal(err)
		}
		var bytes int
		for i, m := range again.Replay {
			bytes += len(m.Payload)
			if m.Seq != again.Replay[0].Seq+uint64(i) || i == len(again.Replay)-1 && m.Seq != 99 {
				t.Fatalf("stream %s: replay %d has seq %d: not the newest messages in order", name, i, m.Seq)
			}
		}
		if bytes > 2000 || len(again.Replay) == 0 || name == "a" && bytes+lens[name][0] <= 2000 {
			t.Errorf("stream %s: %d messages, %d bytes replayed; want the newest that fit 2000 bytes (and what b's share of 3000 leaves)", name, len(again.Replay), bytes)
		}
		again.Close()
		sub.Close()
	}
	if got := h.ReplayBytes(); got > 3000 {
		t.Errorf("ReplayBytes() = %d, want at most MaxReplayBytes 3000", got)
	}
}
