package transport_test

import (
	"errors"
	"math"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/transport"
)

// Every parameter out of its range is refused with a *ParamError naming
// the parameter and stating its range (issue 33: rate=1e-10 made the
// message period overflow time.Duration and hung the scheduler).
func TestParseRequestRanges(t *testing.T) {
	base := "scenario=sse-event&codec=encoding/json&"
	for _, tc := range []struct{ q, param string }{
		{"rate=1e-10", "rate"},
		{"rate=0", "rate"},
		{"rate=0.0009", "rate"},
		{"rate=10000.5", "rate"},
		{"rate=1e308", "rate"},
		{"rate=Inf", "rate"},
		{"rate=NaN", "rate"},
		{"count=-1", "count"},
		{"count=1e30", "count"},
		{"count=9007199254740993", "count"},
		{"stream=" + strings.Repeat("x", 10000), "stream"},
		{"run=" + strings.Repeat("x", 129), "run"},
		{"last_event_id=-5", "last_event_id"},
		{"last_event_id=99999999999999999999", "last_event_id"},
		{"start=9000000000000000000", "start"},
		{"start=-9000000000000000000", "start"},
		{"switch_to=cbor&switch_at=1000000h", "switch_at"},
		{"switch_to=cbor&switch_ramp=-1s", "switch_ramp"},
	} {
		t.Run(tc.q[:min(len(tc.q), 40)], func(t *testing.T) {
			v, err := url.ParseQuery(base + tc.q)
			if err != nil {
				t.Fatal(err)
			}
			_, err = rv.ParseRequest(v, "")
			var pe *transport.ParamError
			if !errors.As(err, &pe) || pe.Param != tc.param || !errors.Is(err, transport.ErrBadRequest) {
				t.Fatalf("err %v, want a ParamError for %s", err, tc.param)
			}
			msg := err.Error()
			if !strings.Contains(msg, "invalid "+tc.param+" ") || !strings.Contains(msg, "range is ") || len(msg) > 200 {
				t.Fatalf("message %q: want the parameter, its range and at most 200 bytes", msg)
			}
		})
	}
	v, _ := url.ParseQuery(base + "rate=5&rate=6")
	if _, err := rv.ParseRequest(v, ""); err == nil || !strings.Contains(err.Error(), `"rate" given 2 times`) {
		t.Fatalf("duplicate rate: %v", err)
	}
	for _, ok := range []string{"rate=0.001", "rate=10000", "count=9007199254740992"} {
		v, _ := url.ParseQuery(base + ok)
		if _, err := rv.ParseRequest(v, ""); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// Subscribe checks the rate itself, for requests built in Go.
func TestSubscribeRateOutOfRange(t *testing.T) {
	h := newHub(t, transport.Options{})
	for _, r := range []float64{1e-10, 0, -1, math.NaN(), math.Inf(1), 2e4} {
		req := request(t, "scenario=sse-event&codec=encoding/json")
		req.Rate = r
		sub, err := h.Subscribe(req)
		var pe *transport.ParamError
		if !errors.As(err, &pe) || pe.Param != "rate" {
			if sub != nil {
				sub.Close()
			}
			t.Errorf("rate %g: %v, want a ParamError for rate", r, err)
		}
	}
}

// Subscriptions beyond MaxTotalRate or MaxSubscribers are refused with an
// error naming the budget; closing one returns its share.
func TestBudget(t *testing.T) {
	h := newHub(t, transport.Options{MaxTotalRate: 1000, MaxSubscribers: 5})
	var subs []*transport.Subscription
	for i := range 4 {
		sub, err := h.Subscribe(request(t, "scenario=sse-event&codec=encoding/json&rate=250&stream=s"+string(rune('a'+i))))
		if err != nil {
			t.Fatalf("subscription %d: %v", i, err)
		}
		subs = append(subs, sub)
	}
	_, err := h.Subscribe(request(t, "scenario=sse-event&codec=encoding/json&rate=0.5&stream=over"))
	if !errors.Is(err, transport.ErrOverBudget) || !strings.Contains(err.Error(), "1000 of 1000 messages/s") {
		t.Fatalf("over the budget: %v", err)
	}
	if n, rate := h.Subscribers(); n != 4 || rate != 1000 {
		t.Fatalf("Subscribers() = %d, %g; want 4, 1000", n, rate)
	}
	if n := h.Stats("").Subscribers; n != 4 {
		t.Errorf("Stats().Subscribers = %d, want 4", n)
	}
	subs[0].Close()
	subs[0].Close() // a second Close returns nothing more
	if n, rate := h.Subscribers(); n != 3 || rate != 750 {
		t.Fatalf("after Close: Subscribers() = %d, %g; want 3, 750", n, rate)
	}
	for i := range 2 {
		sub, err := h.Subscribe(request(t, "scenario=sse-event&codec=encoding/json&rate=1&stream=few"))
		if err != nil {
			t.Fatalf("small subscription %d: %v", i, err)
		}
		subs = append(subs, sub)
	}
	if _, err := h.Subscribe(request(t, "scenario=sse-event&codec=encoding/json&rate=1&stream=few")); !errors.Is(err, transport.ErrTooManySubscribers) {
		t.Fatalf("sixth subscriber: %v", err)
	}
	for _, s := range subs {
		s.Close()
	}
}

// A stream whose subscribers all left encodes nothing more (issue 33: 50
// streams closed after 0.2 s kept encoding for about 5.5 s). Counts only:
// a running stream is the clock, so a slow machine cannot fail the test.
func TestStreamStopsWhenClientsLeave(t *testing.T) {
	h := newHub(t, transport.Options{MaxClientRate: transport.DefaultMaxTotalRate}) // one client
	clock, err := h.Subscribe(request(t, "scenario=sse-event&codec=encoding/json&rate=500&stream=clock"))
	if err != nil {
		t.Fatal(err)
	}
	defer clock.Close()
	var gone []*transport.Subscription
	for i := range 50 {
		sub, err := h.Subscribe(request(t, "scenario=sse-event&codec=cbor&rate=500&stream=g"+strings.Repeat("x", i)))
		if err != nil {
			t.Fatal(err)
		}
		gone = append(gone, sub)
	}
	for _, sub := range gone {
		guard(t, sub.C, "first message")
		sub.Close()
	}
	published := func() uint64 {
		for _, c := range h.Stats("").Codecs {
			if c.Codec == "cbor" {
				return c.Published
			}
		}
		return 0
	}
	before := published()
	for range 100 { // 0.2 s of the clock stream: 100 messages per left stream before the fix
		guard(t, clock.C, "clock stream")
	}
	// At most the message each stream was publishing when its last
	// subscriber left.
	if d := published() - before; d > 50 {
		t.Fatalf("%d messages encoded for streams without subscribers, want at most 50", d)
	}
	// A client that comes back resumes the stream: live messages again.
	back, err := h.Subscribe(request(t, "scenario=sse-event&codec=cbor&rate=500&stream=g"))
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	m := guard(t, back.C, "resumed stream")
	if m.Seq == 0 {
		t.Fatalf("resumed stream restarted at 0")
	}
}

// A stream far behind its schedule (start= 10 s in the past at the highest
// rate: 100,000 messages due at once) does not hold the scheduler: Close
// returns, and a second stream gets its messages meanwhile.
func TestSchedulerReturnsUnderBacklog(t *testing.T) {
	h, err := transport.NewHub(transport.Options{ReplayLen: 1})
	if err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-transport.MaxStartPast + 100*time.Millisecond)
	req := request(t, "scenario=sse-event&codec=encoding/json&rate=10000&stream=behind")
	req.Start, req.QueueLen = past, 1<<20
	behind, err := h.Subscribe(req)
	if err != nil {
		t.Fatal(err)
	}
	other, err := h.Subscribe(request(t, "scenario=sse-event&codec=encoding/json&rate=10000&count=3&stream=other"))
	if err != nil {
		t.Fatal(err)
	}
	guard(t, behind.C, "backlogged stream")
	wantSeqs(t, drain(t, other), 0, 3)
	// The other stream did not wait for the backlog: an order, not a time.
	if n := len(behind.C); n > 50000 {
		t.Fatalf("the other stream ended after %d of the 100,000 messages of the backlog", n)
	}
	closed := make(chan struct{})
	go func() { h.Close(); close(closed) }()
	guard(t, closed, "Close")
	behind.Close()
	other.Close()
}
