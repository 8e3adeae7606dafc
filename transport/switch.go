package transport

import (
	"fmt"
	"math"
	"net/url"
	"time"

	"github.com/serbench/serbench/codec"
)

// Switch moves a stream from its codec (Request.Codec) to To while it
// runs, message by message, without the client reconnecting: each message
// carries the ID of the codec that encoded it in-band (SSE: the event:
// field; WebSocket: a tag line after the header, see package transport/ws).
//
// The share of messages encoded with To rises linearly from 0 at At to 1
// at At+Ramp, both measured from the stream's start on its schedule
// (intended send times). The choice is per message and deterministic:
// message k uses To when frac(k·φ) < share, φ the golden-ratio conjugate,
// a low-discrepancy sequence, so that over any run of messages the share
// of To tracks the ramp closely and both codecs alternate on every
// connection during the ramp. Query parameters:
//
//	switch_to=ID     the codec to move to
//	switch_at=D      when the ramp starts, a Go duration from the stream's start
//	switch_ramp=D    how long the ramp lasts, a Go duration; 0: all at once
type Switch struct {
	To   codec.Codec
	At   time.Duration
	Ramp time.Duration
}

// MaxSwitchAt caps switch_at and switch_ramp.
const MaxSwitchAt = 24 * time.Hour

// phi is the golden-ratio conjugate, (√5-1)/2.
const phi = 0.6180339887498949

// Share returns the fraction of messages, in [0,1], encoded with To at
// offset since the stream's start.
func (s Switch) Share(offset time.Duration) float64 {
	switch {
	case offset < s.At:
		return 0
	case s.Ramp <= 0 || offset >= s.At+s.Ramp:
		return 1
	}
	return float64(offset-s.At) / float64(s.Ramp)
}

// UsesTo reports whether message seq, intended at offset since the
// stream's start, is encoded with To.
func (s Switch) UsesTo(seq uint64, offset time.Duration) bool {
	share := s.Share(offset)
	if share >= 1 {
		return true
	}
	_, frac := math.Modf(float64(seq) * phi)
	return frac < share
}

// key is the part of Request.Key that a switch adds ("" without one).
func (s Switch) key() string {
	if s.To == nil {
		return ""
	}
	return fmt.Sprintf("|switch=%s@%v+%v", s.To.Info().ID, s.At, s.Ramp)
}

// parseSwitch fills req.Switch from q (switch_to, switch_at, switch_ramp).
// Every error wraps ErrBadRequest and names the bad value.
func (rv Resolver) parseSwitch(q url.Values, req *Request) error {
	id := q.Get("switch_to")
	if id == "" {
		if q.Get("switch_at") != "" || q.Get("switch_ramp") != "" {
			return fmt.Errorf("%w: switch_at or switch_ramp without switch_to", ErrBadRequest)
		}
		return nil
	}
	cs, err := rv.Codecs.Select([]string{id})
	if err != nil {
		return fmt.Errorf("%w: switch_to: %v", ErrBadRequest, err)
	}
	to := cs[0]
	if to.Info().Kind == codec.Reference {
		return fmt.Errorf("%w: switch_to %q is a reference row of the matrix, not a codec", ErrBadRequest, id)
	}
	if to.Info().ID == req.Codec.Info().ID {
		return fmt.Errorf("%w: switch_to %q is the stream's codec already", ErrBadRequest, id)
	}
	if _, err := to.Bind(req.Scenario.Value()); err != nil {
		return fmt.Errorf("%w: switch_to %q cannot encode scenario %q: %v", ErrBadRequest, id, req.Scenario.ID, err)
	}
	sw := Switch{To: to}
	for _, p := range []struct {
		key string
		dst *time.Duration
	}{{"switch_at", &sw.At}, {"switch_ramp", &sw.Ramp}} {
		s := q.Get(p.key)
		if s == "" {
			continue
		}
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 || d > MaxSwitchAt {
			return paramError(p.key, s, fmt.Sprintf("a Go duration in [0, %v]", MaxSwitchAt))
		}
		*p.dst = d
	}
	req.Switch = sw
	return nil
}

// SwitchQuery adds the parameters of a switch to To at at, ramping over
// ramp, to q.
func SwitchQuery(q url.Values, to string, at, ramp time.Duration) {
	q.Set("switch_to", to)
	q.Set("switch_at", at.String())
	q.Set("switch_ramp", ramp.String())
}
