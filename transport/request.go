// Package transport holds what the SSE and WebSocket push servers share: the
// Hub that paces every stream from one scheduler, the bounded per-connection
// queues with their overflow policy, the per-stream replay buffer, request
// parsing and server statistics. Packages transport/sse and transport/ws put
// a Hub's messages on the wire; package transport/server mounts both.
//
// A stream is identified by its Request (scenario, codec, rate, count, name,
// run). Message k of a stream has sequence number k (from 0) and intended
// send time start + k/rate, where start is when the stream was created: the
// schedule never drifts, and a late publish keeps its intended time so that
// clients measure latency from when the message should have been sent
// (coordinated omission avoided, as wrk2 does). Each message is encoded once
// with the stream's codec and shared by its subscribers.
//
// Every subscriber has a bounded queue (Options.QueueLen, default 256). The
// scheduler never waits for a subscriber: when a queue is full, the default
// policy (Disconnect) drops that subscriber and counts an overflow, so a
// slow or stalled client never holds up the others; the client can resume
// from the stream's replay buffer (Options.ReplayLen, default the last 128
// messages) with Last-Event-ID. The Drop policy instead discards the message
// for that subscriber and counts it. A stream stops encoding when its last
// subscriber leaves and stays for Options.Linger, so that a reconnecting
// client finds it and its replay buffer, then it is retired; streams have
// no goroutine of their own.
//
// Everything a client controls is bounded: each query parameter has a
// range (ParseRequest, ParamError), the number of streams and of
// subscribers a cap, and the messages per second delivered over all
// subscribers a budget (Options.MaxTotalRate).
package transport

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

// Request limits and defaults.
const (
	// DefaultRate is the rate of a request without rate=, in messages/s.
	DefaultRate = 10.0
	// MinRate and MaxRate bound rate= per stream, in messages/s. MinRate
	// keeps the period between messages (1/rate) far inside
	// time.Duration's range: 1000 s.
	MinRate = 0.001
	MaxRate = 10000.0
	// MaxCount caps count=: 2^53, beyond which a count is not exact as
	// a float64 (a stream at MaxRate would take 28,000 years to end).
	MaxCount = 1 << 53
	// MaxNameLen caps stream= and run=, in bytes.
	MaxNameLen = 128
	// MaxStartPast and MaxStartAhead bound start= around the server's clock.
	MaxStartPast  = 10 * time.Second
	MaxStartAhead = time.Hour
)

// ErrBadRequest is wrapped by every error of ParseRequest; servers answer it
// with HTTP 400.
var ErrBadRequest = errors.New("bad request")

// ParamError is ParseRequest's error for a query parameter out of its
// range: it names the parameter, quotes the value and states the range.
// It wraps ErrBadRequest.
type ParamError struct {
	Param string // the query parameter, e.g. "rate"
	Value string // the value as sent
	Range string // the valid values, e.g. "[0.001, 10000] messages/s"
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("%v: invalid %s %q (range is %s)", ErrBadRequest, e.Param, e.Value, e.Range)
}

// Unwrap returns ErrBadRequest.
func (e *ParamError) Unwrap() error { return ErrBadRequest }

// Ranges of the query parameters, as ParamError states them.
var (
	rateRange  = fmt.Sprintf("[%g, %g] messages/s", MinRate, MaxRate)
	countRange = fmt.Sprintf("[0, %d] messages; 0: no end", uint64(MaxCount))
	nameRange  = fmt.Sprintf("at most %d bytes", MaxNameLen)
	startRange = fmt.Sprintf("Unix ns within [now-%v, now+%v]", MaxStartPast, MaxStartAhead)
	eventRange = fmt.Sprintf("a sequence number in [0, %d]", int64(math.MaxInt64))
)

// paramError returns a *ParamError; a value longer than 32 bytes is cut
// there and "..." added.
func paramError(param, value, rng string) *ParamError {
	if len(value) > 32 {
		value = value[:32] + "..."
	}
	return &ParamError{Param: param, Value: value, Range: rng}
}

// CheckRate returns a *ParamError unless rate is within [MinRate, MaxRate].
func CheckRate(rate float64) error {
	if math.IsNaN(rate) || rate < MinRate || rate > MaxRate {
		return &ParamError{Param: "rate", Value: strconv.FormatFloat(rate, 'g', -1, 64), Range: rateRange}
	}
	return nil
}

// Request is what a client asks a stream for, parsed from the query string:
//
//	scenario=ID   scenario ID (required, or the server's default)
//	codec=ID      codec ID (required unless negotiated another way)
//	rate=R        messages per second, in [0.001, 10000]; default 10
//	count=K       end the stream after K messages, in [0, 2^53]; 0 or absent: never
//	stream=NAME   stream name; absent: the shared stream of these parameters
//	run=ID        groups the statistics of one load run (see Hub.Stats)
//	last_event_id=N  resume after message N (SSE also takes the Last-Event-ID header)
//	start=T       a new stream's first intended send time, Unix ns, within
//	              [now-10s, now+1h]; absent: when the stream is created
//	switch_to=ID, switch_at=D, switch_ramp=D  move the stream to another
//	              codec while it runs (see Switch)
type Request struct {
	Scenario scenario.Scenario
	Codec    codec.Codec
	Rate     float64
	Count    uint64
	Name     string
	Run      string
	// LastEventID is the sequence number the client already has, or -1.
	LastEventID int64
	// Start, when not zero, is a new stream's first intended send time.
	Start time.Time
	// QueueLen, when > 0, overrides the hub's Options.QueueLen for this
	// subscriber (not settable from a query string).
	QueueLen int
	// Switch, when Switch.To is set, moves the stream to another codec
	// while it runs.
	Switch Switch
	// Client identifies the client for its shares of the hub's caps
	// (Options.MaxClientStreams, ...): servers set the remote IP address
	// (not settable from a query string).
	Client string
}

// Key identifies the stream a Request joins. Start is part of it, so that
// a client naming a start= gets a stream of its own rather than setting
// the start of a stream others share.
func (r Request) Key() string {
	k := fmt.Sprintf("%s|%s|%g|%d|%s|%s", r.Scenario.ID, r.Codec.Info().ID, r.Rate, r.Count, r.Name, r.Run) + r.Switch.key()
	if !r.Start.IsZero() {
		k += fmt.Sprintf("|start=%d", r.Start.UnixNano())
	}
	return k
}

// Resolver finds codecs and scenarios by ID.
type Resolver struct {
	Codecs    *codec.Registry
	Scenarios []scenario.Scenario
}

// ParseRequest parses q. codecID, when not empty, is the codec negotiated
// outside the query (a WebSocket subprotocol); a codec= that disagrees with
// it is an error. Every error wraps ErrBadRequest and names the bad value;
// a value out of its range is a *ParamError. A parameter given more than
// once is an error (which one counts would otherwise depend on the reader).
func (rv Resolver) ParseRequest(q url.Values, codecID string) (Request, error) {
	req := Request{Rate: DefaultRate, LastEventID: -1}
	for k, v := range q {
		if len(v) > 1 {
			return req, fmt.Errorf("%w: parameter %.32q given %d times (want at most once)", ErrBadRequest, k, len(v))
		}
	}
	sid := q.Get("scenario")
	if sid == "" {
		return req, fmt.Errorf("%w: missing scenario (valid: %s)", ErrBadRequest, rv.scenarioIDs())
	}
	ss, err := scenario.Select(rv.Scenarios, []string{sid})
	if err != nil {
		return req, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	req.Scenario = ss[0]

	cid := q.Get("codec")
	switch {
	case cid == "" && codecID == "":
		return req, fmt.Errorf("%w: missing codec (valid: %s)", ErrBadRequest, strings.Join(rv.Codecs.IDs(), ", "))
	case cid == "":
		cid = codecID
	case codecID != "" && cid != codecID:
		return req, fmt.Errorf("%w: codec %q disagrees with negotiated codec %q", ErrBadRequest, cid, codecID)
	}
	cs, err := rv.Codecs.Select([]string{cid})
	if err != nil {
		return req, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	req.Codec = cs[0]
	if req.Codec.Info().Kind == codec.Reference {
		return req, fmt.Errorf("%w: %q is a reference row of the matrix, not a codec, and cannot carry messages", ErrBadRequest, cid)
	}
	if req.Codec.Info().ParseOnly {
		return req, fmt.Errorf("%w: %q only parses JSON into its own tree and cannot encode messages", ErrBadRequest, cid)
	}
	if _, err := req.Codec.Bind(req.Scenario.Value()); err != nil {
		return req, fmt.Errorf("%w: codec %q cannot encode scenario %q: %v", ErrBadRequest, cid, sid, err)
	}

	if s := q.Get("rate"); s != "" {
		r, err := strconv.ParseFloat(s, 64)
		if err != nil || CheckRate(r) != nil {
			return req, paramError("rate", s, rateRange)
		}
		req.Rate = r
	}
	if s := q.Get("count"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil || n > MaxCount {
			return req, paramError("count", s, countRange)
		}
		req.Count = n
	}
	for _, p := range []struct {
		key string
		dst *string
	}{{"stream", &req.Name}, {"run", &req.Run}} {
		v := q.Get(p.key)
		if len(v) > MaxNameLen {
			return req, paramError(p.key, v, nameRange)
		}
		*p.dst = v
	}
	if s := q.Get("start"); s != "" {
		ns, err := strconv.ParseInt(s, 10, 64)
		now := time.Now()
		at := time.Unix(0, ns)
		if err != nil || at.Before(now.Add(-MaxStartPast)) || at.After(now.Add(MaxStartAhead)) {
			return req, paramError("start", s, startRange)
		}
		req.Start = at
	}
	if s := q.Get("last_event_id"); s != "" {
		id, err := ParseEventID(s)
		if err != nil {
			return req, err
		}
		req.LastEventID = id
	}
	if err := rv.parseSwitch(q, &req); err != nil {
		return req, err
	}
	return req, nil
}

// ParseEventID parses a Last-Event-ID value: a decimal sequence number.
func ParseEventID(s string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 0 {
		return -1, paramError("last_event_id", s, eventRange)
	}
	return n, nil
}

func (rv Resolver) scenarioIDs() string {
	ids := make([]string, len(rv.Scenarios))
	for i, s := range rv.Scenarios {
		ids[i] = s.ID
	}
	return strings.Join(ids, ", ")
}

// Query returns the query string of a request for a stream, for clients;
// codec "", count 0, stream "", run "" and a zero start are left out.
func Query(scenarioID, codecID string, rate float64, count uint64, stream, run string, start time.Time) url.Values {
	q := url.Values{}
	q.Set("scenario", scenarioID)
	if codecID != "" {
		q.Set("codec", codecID)
	}
	q.Set("rate", strconv.FormatFloat(rate, 'g', -1, 64))
	if count > 0 {
		q.Set("count", strconv.FormatUint(count, 10))
	}
	if stream != "" {
		q.Set("stream", stream)
	}
	if run != "" {
		q.Set("run", run)
	}
	if !start.IsZero() {
		q.Set("start", strconv.FormatInt(start.UnixNano(), 10))
	}
	return q
}
