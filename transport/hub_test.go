package transport_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
)

var rv = transport.Resolver{Codecs: all.Registry(), Scenarios: scenario.Seeds()}

func request(t *testing.T, q string) transport.Request {
	t.Helper()
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	req, err := rv.ParseRequest(v, "")
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func newHub(t *testing.T, o transport.Options) *transport.Hub {
	t.Helper()
	h, err := transport.NewHub(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

// drain reads sub to the end of its stream and returns the sequence numbers.
func drain(t *testing.T, sub *transport.Subscription) []uint64 {
	t.Helper()
	var seqs []uint64
	for _, m := range sub.Replay {
		seqs = append(seqs, m.Seq)
	}
	for {
		select {
		case m, ok := <-sub.C:
			if !ok {
				return seqs
			}
			seqs = append(seqs, m.Seq)
		case <-sub.Done():
			t.Fatalf("subscription dropped: %v", sub.Err())
		}
	}
}

func wantSeqs(t *testing.T, got []uint64, from, to uint64) {
	t.Helper()
	if uint64(len(got)) != to-from {
		t.Fatalf("got %d messages %v, want seq %d..%d", len(got), got, from, to-1)
	}
	for i, s := range got {
		if s != from+uint64(i) {
			t.Fatalf("message %d has seq %d, want %d (all: %v)", i, s, from+uint64(i), got)
		}
	}
}

func TestParseRequestErrors(t *testing.T) {
	for _, tc := range []struct{ q, want string }{
		{"codec=encoding/json", "missing scenario"},
		{"scenario=nope&codec=encoding/json", `"nope"`},
		{"scenario=sse-event", "missing codec"},
		{"scenario=sse-event&codec=nope", `"nope"`},
		{"scenario=sse-event&codec=memmove", "reference row"},
		{"scenario=sse-event&codec=fastjson", "only parses JSON"},
		{"scenario=sse-event&codec=encoding/json&rate=0", `"0"`},
		{"scenario=sse-event&codec=encoding/json&rate=abc", `"abc"`},
		{"scenario=sse-event&codec=encoding/json&rate=1e9", `"1e9"`},
		{"scenario=sse-event&codec=encoding/json&count=-1", `"-1"`},
		{"scenario=sse-event&codec=encoding/json&last_event_id=x", `"x"`},
	} {
		t.Run(tc.q, func(t *testing.T) {
			v, _ := url.ParseQuery(tc.q)
			_, err := rv.ParseRequest(v, "")
			if !errors.Is(err, transport.ErrBadRequest) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want ErrBadRequest naming %s", err, tc.want)
			}
		})
	}
	v, _ := url.ParseQuery("scenario=sse-event&codec=msgpack")
	if _, err := rv.ParseRequest(v, "encoding/json"); !errors.Is(err, transport.ErrBadRequest) {
		t.Fatalf("disagreeing codecs: err = %v", err)
	}
}

func TestBoundedStream(t *testing.T) {
	h := newHub(t, transport.Options{})
	sub, err := h.Subscribe(request(t, "scenario=sse-event&codec=encoding/json&rate=1000&count=20&stream=a"))
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	wantSeqs(t, drain(t, sub), 0, 20)
}

// A subscriber that never reads is disconnected (Disconnect) or loses
// messages (Drop); the other subscriber of the same stream gets every message.
func TestStalledSubscriber(t *testing.T) {
	for _, pol := range []transport.Overflow{transport.Disconnect, transport.Drop} {
		t.Run(pol.String(), func(t *testing.T) {
			h := newHub(t, transport.Options{QueueLen: 4, Overflow: pol})
			req := request(t, "scenario=ws-message&codec=msgpack&rate=2000&count=200&stream=shared")
			req.QueueLen = 300            // holds the whole stream: never overflows
			live, err := h.Subscribe(req) // creates the stream: gets every message
			if err != nil {
				t.Fatal(err)
			}
			defer live.Close()
			req.QueueLen = 0
			stalled, err := h.Subscribe(req)
			if err != nil {
				t.Fatal(err)
			}
			defer stalled.Close()
			wantSeqs(t, drain(t, live), 0, 200)
			st := h.Stats("")
			if len(st.Codecs) != 1 {
				t.Fatalf("stats: %+v", st)
			}
			c := st.Codecs[0]
			switch pol {
			case transport.Disconnect:
				<-stalled.Done()
				if !errors.Is(stalled.Err(), transport.ErrOverflow) || c.Overflows != 1 {
					t.Fatalf("stalled: err %v, overflows %d", stalled.Err(), c.Overflows)
				}
			case transport.Drop:
				// The stalled queue holds the first 4 messages after it joined;
				// everything after them was dropped.
				first := (<-stalled.C).Seq
				if want := 200 - first - 4; c.Dropped != want || stalled.Err() != nil {
					t.Fatalf("dropped %d, want %d; err %v", c.Dropped, want, stalled.Err())
				}
			}
			if c.Published != 200 {
				t.Fatalf("published %d, want 200", c.Published)
			}
		})
	}
}

// A subscriber that resumes with its last event ID gets every later message
// once, with no gap, from the replay buffer and then live.
func TestResumeFromReplay(t *testing.T) {
	h := newHub(t, transport.Options{ReplayLen: 64})
	req := request(t, "scenario=user-event&codec=cbor&rate=500&count=40&stream=r")
	sub, err := h.Subscribe(req)
	if err != nil {
		t.Fatal(err)
	}
	var got []uint64
	for len(got) < 10 {
		got = append(got, (<-sub.C).Seq)
	}
	sub.Close()
	wantSeqs(t, got, 0, 10)
	req.LastEventID = 9
	sub2, err := h.Subscribe(req)
	if err != nil {
		t.Fatal(err)
	}
	defer sub2.Close()
	wantSeqs(t, drain(t, sub2), 10, 40)
	if c := h.Stats("").Codecs[0]; c.ReplayMisses != 0 {
		t.Fatalf("replay misses %d", c.ReplayMisses)
	}
}

func TestCloseEndsSubscriptions(t *testing.T) {
	h, err := transport.NewHub(transport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := h.Subscribe(request(t, "scenario=sse-event&codec=gob&rate=1"))
	if err != nil {
		t.Fatal(err)
	}
	h.Close()
	<-sub.Done()
	if !errors.Is(sub.Err(), transport.ErrClosed) {
		t.Fatalf("err = %v", sub.Err())
	}
	if _, err := h.Subscribe(request(t, "scenario=sse-event&codec=gob&rate=1")); !errors.Is(err, transport.ErrClosed) {
		t.Fatalf("subscribe after close: %v", err)
	}
	h.Close()
}

func TestOptionsRange(t *testing.T) {
	for _, o := range []transport.Options{{QueueLen: -1}, {ReplayLen: -1}, {Linger: -1}, {MaxStreams: -2}, {Overflow: 7}} {
		if _, err := transport.NewHub(o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// A codec that overwrites its Marshal output (wire/reuse) still gives every
// message bytes of its own: queues and the replay ring hold them after the
// next Marshal.
func TestReusingCodecPayloadsAreCopied(t *testing.T) {
	h := newHub(t, transport.Options{})
	sub, err := h.Subscribe(request(t, "scenario=ws-message&codec=wire/reuse&rate=1000&count=5&stream=reuse"))
	if err != nil {
		t.Fatal(err)
	}
	var payloads [][]byte
	for m := range sub.C {
		payloads = append(payloads, m.Payload)
	}
	if len(payloads) != 5 {
		t.Fatalf("%d messages, want 5", len(payloads))
	}
	for i := 1; i < len(payloads); i++ {
		if &payloads[i][0] == &payloads[0][0] {
			t.Fatalf("messages 0 and %d share one buffer", i)
		}
	}
}
