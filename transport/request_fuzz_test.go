package transport_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/transport"
)

// FuzzParseRequest checks ParseRequest on any query string: it never
// panics, every error wraps ErrBadRequest and is one line, and every
// request it accepts is within the stated ranges, so that a Hub takes it
// (Subscribe's own rate check passes) and its schedule cannot overflow.
func FuzzParseRequest(f *testing.F) {
	for _, q := range []string{
		"scenario=sse-event&codec=encoding/json&rate=10",
		"scenario=sse-event&codec=encoding/json&rate=1e-10",
		"scenario=ws-message&codec=cbor&rate=10000&count=5&stream=a&run=b&last_event_id=3",
		"scenario=annotation&codec=msgpack&rate=0.001&count=9007199254740992",
		"scenario=user-event&codec=protobuf&switch_to=cbor&switch_at=1s&switch_ramp=2s",
		"scenario=sse-event&codec=encoding/json&rate=NaN&count=-1",
		"scenario=sse-event&codec=encoding/json&rate=5&rate=6",
		"scenario=sse-event&codec=memmove",
	} {
		f.Add(q, "")
	}
	f.Add("scenario=ws-message&rate=3", "cbor")
	f.Fuzz(func(t *testing.T, query, negotiated string) {
		q, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		before := time.Now()
		req, err := rv.ParseRequest(q, negotiated)
		if err != nil {
			if !errors.Is(err, transport.ErrBadRequest) || strings.Contains(err.Error(), "\n") && !strings.Contains(query, "\n") && !strings.Contains(negotiated, "\n") {
				t.Fatalf("error %q: want one line wrapping ErrBadRequest", err)
			}
			return
		}
		if err := transport.CheckRate(req.Rate); err != nil {
			t.Fatalf("accepted rate: %v", err)
		}
		if req.Count > transport.MaxCount || len(req.Name) > transport.MaxNameLen || len(req.Run) > transport.MaxNameLen || req.LastEventID < -1 {
			t.Fatalf("accepted out of range: count %d, name %d bytes, run %d bytes, last event %d", req.Count, len(req.Name), len(req.Run), req.LastEventID)
		}
		if !req.Start.IsZero() && (req.Start.Before(before.Add(-transport.MaxStartPast)) || req.Start.After(time.Now().Add(transport.MaxStartAhead))) {
			t.Fatalf("accepted start %v", req.Start)
		}
		if req.Switch.At < 0 || req.Switch.At > transport.MaxSwitchAt || req.Switch.Ramp < 0 || req.Switch.Ramp > transport.MaxSwitchAt {
			t.Fatalf("accepted switch %+v", req.Switch)
		}
		_ = req.Key()
	})
}
