package transport

import (
	"bytes"
	"container/heap"
	"errors"
	"fmt"
	"math"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/serbench/serbench/codec"
)

// Overflow is what a Hub does when a subscriber's queue is full.
type Overflow int

const (
	// Disconnect ends the subscription with ErrOverflow (the default). The
	// client sees no silent gap: it reconnects, and an SSE client with
	// Last-Event-ID (or any client with last_event_id=) is replayed from the
	// stream's buffer.
	Disconnect Overflow = iota
	// Drop discards the message for that subscriber only and counts it; the
	// client sees a gap in the sequence numbers.
	Drop
)

func (o Overflow) String() string {
	switch o {
	case Disconnect:
		return "disconnect"
	case Drop:
		return "drop"
	}
	return fmt.Sprintf("Overflow(%d)", int(o))
}

// ParseOverflow parses "disconnect" or "drop".
func ParseOverflow(s string) (Overflow, error) {
	switch s {
	case "disconnect", "":
		return Disconnect, nil
	case "drop":
		return Drop, nil
	}
	return 0, fmt.Errorf("transport: unknown overflow policy %q (want disconnect or drop)", s)
}

// Options configure a Hub. The zero value means defaults.
type Options struct {
	// QueueLen is each subscriber's queue capacity, in messages. A publisher
	// never waits for a subscriber: when the queue is full, Overflow applies.
	// Default 256; range [1, 1<<20].
	QueueLen int
	// ReplayLen is how many recent messages each stream keeps for clients
	// that resume with a last event ID. Default 128; range [0, 1<<20].
	ReplayLen int
	// MaxStreamReplayBytes caps the payload bytes one stream's replay
	// buffer keeps, and MaxReplayBytes those of every stream's together:
	// past either, a stream drops its oldest buffered messages (a client
	// resuming from one of those misses it, counted as replay_misses).
	// Defaults DefaultMaxStreamReplayBytes (256 KiB) and
	// DefaultMaxReplayBytes (256 MiB); range [1, 1<<40].
	MaxStreamReplayBytes int64
	MaxReplayBytes       int64
	// Overflow is the policy for a full queue. Default Disconnect.
	Overflow Overflow
	// Linger is how long a stream keeps running (and its replay buffer
	// stays) after its last subscriber left or after it ended. Default 10s;
	// range [1ms, 1h].
	Linger time.Duration
	// MaxStreams caps the number of live streams. Default 20000; range [1, 1<<24].
	MaxStreams int
	// MaxSubscribers caps the number of subscriptions open at once (each
	// is one client connection). Default 20000; range [1, 1<<24].
	MaxSubscribers int
	// MaxTotalRate is the budget of messages per second the hub delivers,
	// summed over every open subscription (a stream's rate counts once
	// per subscriber, since each one gets every message). Subscribe
	// refuses a subscription that would exceed it with ErrOverBudget.
	// Default 100000; range [1, 1e9].
	MaxTotalRate float64

	// The shares of one client (Request.Client, the remote address): no
	// client may hold more than these, so that one cannot take the whole
	// of a cap above from the others. A request without a Client is
	// counted under "". A subscription to a stream whose start is still
	// ahead (start=) counts against the subscriber caps at once and
	// against the rate caps only from its start.
	//
	// MaxClientStreams caps the live streams a client created (a stream
	// counts against its creator until it is retired, Linger after its
	// last subscriber left). Default DefaultMaxClientStreams; range
	// [1, 1<<24].
	MaxClientStreams int
	// MaxClientSubscribers caps a client's open subscriptions. Default
	// DefaultMaxClientSubscribers; range [1, 1<<24].
	MaxClientSubscribers int
	// MaxClientRate caps the rates of a client's started subscriptions
	// summed, in messages/s. Default DefaultMaxClientRate; range [1, 1e9].
	MaxClientRate float64
}

// Defaults of Options.
const (
	DefaultQueueLen   = 256
	DefaultReplayLen  = 128
	DefaultOverflow   = Disconnect
	DefaultLinger     = 10 * time.Second
	DefaultMaxStreams = 20000
	// DefaultMaxSubscribers is Options.MaxSubscribers' default.
	DefaultMaxSubscribers = 20000
	// DefaultMaxTotalRate is Options.MaxTotalRate's default, in messages/s:
	// ten streams at MaxRate, or 10,000 connections at 10 messages/s.
	DefaultMaxTotalRate = 100000.0
	// MaxMaxTotalRate is the largest Options.MaxTotalRate.
	MaxMaxTotalRate = 1e9
	// DefaultMaxStreamReplayBytes is Options.MaxStreamReplayBytes'
	// default: 256 KiB, 128 messages of 2 KiB.
	DefaultMaxStreamReplayBytes = 256 << 10
	// DefaultMaxReplayBytes is Options.MaxReplayBytes' default: 256 MiB.
	DefaultMaxReplayBytes = 256 << 20
	// DefaultMaxClientStreams is Options.MaxClientStreams' default: a
	// twentieth of the default stream cap.
	DefaultMaxClientStreams = 1000
	// DefaultMaxClientSubscribers is Options.MaxClientSubscribers' default.
	DefaultMaxClientSubscribers = 1000
	// DefaultMaxClientRate is Options.MaxClientRate's default, in
	// messages/s: a quarter of the default budget, two streams at MaxRate.
	DefaultMaxClientRate = 25000.0
)

// Effective returns o with defaults filled in, or an error naming the
// first field out of range.
func (o Options) Effective() (Options, error) {
	if o.QueueLen == 0 {
		o.QueueLen = DefaultQueueLen
	}
	if o.ReplayLen == 0 {
		o.ReplayLen = DefaultReplayLen
	}
	if o.Linger == 0 {
		o.Linger = DefaultLinger
	}
	if o.MaxStreams == 0 {
		o.MaxStreams = DefaultMaxStreams
	}
	if o.MaxSubscribers == 0 {
		o.MaxSubscribers = DefaultMaxSubscribers
	}
	if o.MaxTotalRate == 0 {
		o.MaxTotalRate = DefaultMaxTotalRate
	}
	if o.MaxClientStreams == 0 {
		o.MaxClientStreams = DefaultMaxClientStreams
	}
	if o.MaxStreamReplayBytes == 0 {
		o.MaxStreamReplayBytes = DefaultMaxStreamReplayBytes
	}
	if o.MaxReplayBytes == 0 {
		o.MaxReplayBytes = DefaultMaxReplayBytes
	}
	if o.MaxStreamReplayBytes < 1 || o.MaxStreamReplayBytes > 1<<40 || o.MaxReplayBytes < 1 || o.MaxReplayBytes > 1<<40 {
		return o, fmt.Errorf("transport: invalid MaxStreamReplayBytes %d or MaxReplayBytes %d (range is [1, %d])", o.MaxStreamReplayBytes, o.MaxReplayBytes, int64(1)<<40)
	}
	if o.MaxClientSubscribers == 0 {
		o.MaxClientSubscribers = DefaultMaxClientSubscribers
	}
	if o.MaxClientRate == 0 {
		o.MaxClientRate = DefaultMaxClientRate
	}
	for _, f := range []struct {
		name      string
		v, lo, hi int
	}{
		{"QueueLen", o.QueueLen, 1, 1 << 20},
		{"ReplayLen", o.ReplayLen, 0, 1 << 20},
		{"MaxStreams", o.MaxStreams, 1, 1 << 24},
		{"MaxSubscribers", o.MaxSubscribers, 1, 1 << 24},
		{"MaxClientStreams", o.MaxClientStreams, 1, 1 << 24},
		{"MaxClientSubscribers", o.MaxClientSubscribers, 1, 1 << 24},
	} {
		if f.v < f.lo || f.v > f.hi {
			return o, fmt.Errorf("transport: invalid %s %d (range is [%d, %d])", f.name, f.v, f.lo, f.hi)
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"MaxTotalRate", o.MaxTotalRate}, {"MaxClientRate", o.MaxClientRate}} {
		if math.IsNaN(f.v) || f.v < 1 || f.v > MaxMaxTotalRate {
			return o, fmt.Errorf("transport: invalid %s %g (range is [1, %g] messages/s)", f.name, f.v, MaxMaxTotalRate)
		}
	}
	switch {
	case o.Linger < time.Millisecond || o.Linger > time.Hour:
		return o, fmt.Errorf("transport: invalid Linger %v (range is [1ms, 1h])", o.Linger)
	case o.Overflow != Disconnect && o.Overflow != Drop:
		return o, fmt.Errorf("transport: invalid Overflow %v", o.Overflow)
	}
	return o, nil
}

// Errors a Subscription ends with, and Subscribe's refusals. Servers answer
// ErrTooManyStreams, ErrTooManySubscribers and ErrOverBudget with HTTP 503:
// the request was valid, the server is full.
var (
	ErrOverflow           = errors.New("transport: subscriber queue full, disconnected")
	ErrClosed             = errors.New("transport: hub closed")
	ErrTooManyStreams     = errors.New("transport: too many streams")
	ErrTooManySubscribers = errors.New("transport: too many subscribers")
	ErrOverBudget         = errors.New("transport: message budget exhausted")
)

// Message is one message of a stream. It is shared by every subscriber and
// must not be modified.
type Message struct {
	// Seq is the message's position in its stream, from 0.
	Seq uint64
	// Intended is when the schedule says the message is sent:
	// stream start + Seq/rate. Latency is measured from it.
	Intended time.Time
	// Payload is the codec's encoding of the scenario value (raw bytes,
	// before any base64 a transport adds).
	Payload []byte
	// Codec is the ID of the codec that encoded Payload on a stream with a
	// Switch, which transports send in-band; "" on other streams, whose
	// codec is the Request's.
	Codec string
	// Binary is that codec's Info.Binary, when Codec is set.
	Binary bool

	sharedMu sync.Mutex
	shared   []sharedForm // Shared's values, at most maxSharedForms
}

// maxSharedForms is how many forms of one Message Shared keeps: a stream's
// WebSocket frames (plain or compressed) and SSE gzip events (with the
// previous event as dictionary, and without for subscribers that just
// joined) need two or three.
const maxSharedForms = 4

// sharedForm is a transport's form of a Message and the key it was built for.
type sharedForm struct {
	key any
	v   any
}

// Shared returns the form of m that build makes for key (a comparable
// value), built once for every subscriber that asks with that key: a
// transport that writes the same bytes to each connection of a stream
// (the WebSocket handler's prepared, possibly compressed, frame; the SSE
// handler's gzip blocks of an event) builds them once per published
// message instead of once per connection. Up to maxSharedForms forms are
// kept, one per key, each built exactly once (callers with the same key
// wait for the first); past that, a call with another key builds afresh
// and keeps nothing. build must not call m.Shared. A kept form lives as
// long as m (in the stream's replay buffer, until it leaves it). Safe for
// concurrent use.
func (m *Message) Shared(key any, build func() any) any {
	m.sharedMu.Lock()
	defer m.sharedMu.Unlock()
	for _, f := range m.shared {
		if f.key == key {
			return f.v
		}
	}
	v := build()
	if len(m.shared) < maxSharedForms {
		m.shared = append(m.shared, sharedForm{key, v})
	}
	return v
}

// Hub runs streams: one scheduler goroutine paces every stream, encodes each
// message once with the stream's codec and offers it to the stream's
// subscribers without waiting. A Hub is safe for concurrent use.
//
// A stream whose last subscriber left stops encoding at once and waits
// Options.Linger for a client to come back; one that does finds the
// stream's replay buffer, and the stream resumes on its schedule, at most
// ReplayLen messages behind (the messages before those are never encoded,
// since no client could get them).
//
// The scheduler publishes at most maxBurst messages between two looks at
// Close and at new streams, and a stream behind its schedule (resuming, or
// with a start= in the past) takes turns with the streams due, so that a
// backlog holds neither the scheduler nor the other streams.
type Hub struct {
	opts Options

	mu       sync.Mutex
	streams  map[string]*stream
	pending  []*stream
	resumed  []*stream
	closed   bool
	subs     int   // open subscriptions
	rateUsed int64 // their rates summed, in millimessages/s
	clients  map[string]*clientUse

	replayBytes atomic.Int64 // payload bytes in every stream's ring

	wake chan struct{}
	quit chan struct{}
	done chan struct{}

	stats statsTable
}

// NewHub validates opts and starts the hub's scheduler. Close stops it.
func NewHub(opts Options) (*Hub, error) {
	o, err := opts.Effective()
	if err != nil {
		return nil, err
	}
	h := &Hub{
		opts:    o,
		streams: make(map[string]*stream),
		clients: make(map[string]*clientUse),
		wake:    make(chan struct{}, 1),
		quit:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	go h.schedule()
	return h, nil
}

// Options returns the options in effect.
func (h *Hub) Options() Options { return h.opts }

// Close stops the scheduler and ends every subscription with ErrClosed. It
// waits for the scheduler to return and is safe to call more than once.
func (h *Hub) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		<-h.done
		return
	}
	h.closed = true
	streams := h.streams
	h.streams = map[string]*stream{}
	h.mu.Unlock()
	close(h.quit)
	<-h.done
	for _, s := range streams {
		s.mu.Lock()
		for sub := range s.subs {
			sub.kill(ErrClosed)
		}
		s.subs = nil
		s.removed = true
		s.mu.Unlock()
	}
}

// Subscription is one client's view of a stream: first Replay, then the
// messages on C. C is closed after the last message of a stream with a
// count; Done is closed when the hub drops the subscriber (Err says why).
type Subscription struct {
	// Request is the parsed request.
	Request Request
	// Replay holds the buffered messages after Request.LastEventID, oldest first.
	Replay []*Message
	// C delivers live messages in sequence order; closed when the stream ends.
	C <-chan *Message
	// Preamble is what the connection must send before any message when
	// the stream's codec Binding is a codec.Preambler (gob/stream's type
	// descriptors), nil otherwise. Shared: callers must not modify it.
	Preamble []byte

	q      chan *Message
	s      *stream
	h      *Hub
	done   chan struct{}
	once   sync.Once
	err    error
	closed bool  // guarded by s.mu
	cost   int64 // the rate it holds of the budget, in millimessages/s
	// deferred is the rate it will hold once its stream starts (start=
	// ahead), guarded by h.mu; 0 once charged.
	deferred int64
	freed    bool // guarded by h.mu: cost returned
}

// Done is closed when the hub ends the subscription (overflow, shutdown).
func (sub *Subscription) Done() <-chan struct{} { return sub.done }

// Err is why Done was closed: ErrOverflow, ErrClosed, or an error wrapping
// ErrOverBudget when the budget had no room for it at its stream's start;
// nil before.
func (sub *Subscription) Err() error {
	select {
	case <-sub.done:
		return sub.err
	default:
		return nil
	}
}

func (sub *Subscription) kill(err error) {
	sub.once.Do(func() {
		sub.err = err
		close(sub.done)
	})
}

// Close leaves the stream and returns the subscription's share of the
// budget (Options.MaxTotalRate). It is safe to call more than once.
func (sub *Subscription) Close() {
	s := sub.s
	s.mu.Lock()
	if !sub.closed {
		sub.closed = true
		delete(s.subs, sub)
		if len(s.subs) == 0 {
			s.idleSince = time.Now()
		}
	}
	s.mu.Unlock()
	h := sub.h
	h.mu.Lock()
	if !sub.freed {
		sub.freed = true
		h.subs--
		h.rateUsed -= sub.cost
		c := h.clients[sub.Request.Client]
		c.subs--
		c.rate -= sub.cost
		h.forget(sub.Request.Client)
	}
	h.mu.Unlock()
}

// Subscribe joins the stream req names, creating it if needed. It fails with
// a *ParamError when req.Rate is outside [MinRate, MaxRate], ErrClosed after
// Close, ErrTooManyStreams at the stream cap or req.Client's share of it,
// ErrTooManySubscribers at the subscriber cap or req.Client's share, and
// ErrOverBudget when req.Rate would take the rates of the open
// subscriptions above Options.MaxTotalRate or req.Client's above
// Options.MaxClientRate; each error names the cap, the serve flag that
// sets it and the use that reached it. A subscription to a stream whose
// start is ahead holds no rate until the start: then, if the budget has
// no room for it, it ends with ErrOverBudget (Err). The caller must Close
// the subscription.
//
// A new stream's codec is bound (Bind, Preamble, ToNative) without holding
// the lock the scheduler takes, so a slow Bind delays only this call, never
// the messages of running streams. When two calls create the same stream
// at once, both bind and the first to finish wins; the other joins it.
func (h *Hub) Subscribe(req Request) (*Subscription, error) {
	if err := CheckRate(req.Rate); err != nil {
		return nil, err
	}
	cost := int64(math.Ceil(req.Rate * 1000))
	charged := cost
	if req.Start.After(time.Now()) {
		charged = 0 // from the start on (chargeDeferred)
	}
	key := req.Key()
	var fresh *stream
	for {
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			return nil, ErrClosed
		}
		s := h.streams[key]
		if err := h.admit(req.Client, charged, s == nil); err != nil {
			h.mu.Unlock()
			return nil, err
		}
		if s == nil && fresh != nil {
			s = fresh
			h.add(s)
		}
		if s != nil {
			// Under h.mu, so that the scheduler cannot retire s first.
			sub := h.join(s, req)
			sub.cost, sub.deferred = charged, cost-charged
			if sub.deferred > 0 {
				s.deferred.Store(true)
			}
			c := h.client(req.Client)
			c.subs++
			c.rate += charged
			h.subs++
			h.rateUsed += charged
			h.mu.Unlock()
			return sub, nil
		}
		h.mu.Unlock()
		var err error
		if fresh, err = h.newStream(key, req); err != nil {
			return nil, err
		}
	}
}

// Admits reports whether Subscribe would take req now, with the error it
// would give, without subscribing or creating a stream (what a HEAD
// request answers).
func (h *Hub) Admits(req Request) error {
	if err := CheckRate(req.Rate); err != nil {
		return err
	}
	cost := int64(math.Ceil(req.Rate * 1000))
	if req.Start.After(time.Now()) {
		cost = 0
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	return h.admit(req.Client, cost, h.streams[req.Key()] == nil)
}

// ClientAddr returns the client of an HTTP request for Request.Client:
// the IP address of remoteAddr (http.Request.RemoteAddr, host:port), or
// remoteAddr itself when it has no port.
func ClientAddr(remoteAddr string) string {
	if host, _, err := net.SplitHostPort(remoteAddr); err == nil {
		return host
	}
	return remoteAddr
}

// clientUse is what one client holds of the hub's caps.
type clientUse struct {
	streams, subs int
	rate          int64 // millimessages/s
}

// client returns the use of client id, creating it. The caller holds h.mu.
func (h *Hub) client(id string) *clientUse {
	c := h.clients[id]
	if c == nil {
		c = &clientUse{}
		h.clients[id] = c
	}
	return c
}

// forget drops client id once it holds nothing. The caller holds h.mu.
func (h *Hub) forget(id string) {
	if c := h.clients[id]; c != nil && *c == (clientUse{}) {
		delete(h.clients, id)
	}
}

// admit checks that one more subscription of client id, at cost
// millimessages/s and creating a stream when creating, fits the caps and
// the client's shares. The caller holds h.mu.
func (h *Hub) admit(id string, cost int64, creating bool) error {
	o := h.opts
	c := h.clients[id]
	if c == nil {
		c = &clientUse{}
	}
	switch {
	case h.subs >= o.MaxSubscribers:
		return fmt.Errorf("%w (%d open; the cap is MaxSubscribers, serve -max-subscribers)", ErrTooManySubscribers, h.subs)
	case c.subs >= o.MaxClientSubscribers:
		return fmt.Errorf("%w: client %s has %d open (the cap per client is MaxClientSubscribers, serve -max-client-subscribers)", ErrTooManySubscribers, id, c.subs)
	case creating && len(h.streams) >= o.MaxStreams:
		return fmt.Errorf("%w (%d live, %d of them created by client %s; the cap is MaxStreams, serve -max-streams)", ErrTooManyStreams, len(h.streams), c.streams, id)
	case creating && c.streams >= o.MaxClientStreams:
		return fmt.Errorf("%w: client %s created %d live streams (the cap per client is MaxClientStreams, serve -max-client-streams; a stream counts until Linger after its last subscriber left)", ErrTooManyStreams, id, c.streams)
	}
	return h.overRate(id, c, cost)
}

// overRate checks that cost millimessages/s more fit the budget and
// client id's share of it (use c). The caller holds h.mu.
func (h *Hub) overRate(id string, c *clientUse, cost int64) error {
	if h.rateUsed+cost > int64(h.opts.MaxTotalRate*1000) {
		return fmt.Errorf("%w: rate %g messages/s asked, %g of %g messages/s in use by %d subscribers (the budget is MaxTotalRate, serve -max-total-rate)",
			ErrOverBudget, float64(cost)/1000, float64(h.rateUsed)/1000, h.opts.MaxTotalRate, h.subs)
	}
	if c.rate+cost > int64(h.opts.MaxClientRate*1000) {
		return fmt.Errorf("%w: rate %g messages/s asked, client %s holds %g of its %g messages/s (the share per client is MaxClientRate, serve -max-client-rate)",
			ErrOverBudget, float64(cost)/1000, id, float64(c.rate)/1000, h.opts.MaxClientRate)
	}
	return nil
}

// chargeDeferred charges the subscriptions of s that joined before its
// start their rates, now that it starts; one that the budget or its
// client's share has no room for ends with ErrOverBudget.
func (h *Hub) chargeDeferred(s *stream, now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deferred.Store(false)
	for sub := range s.subs {
		if sub.deferred == 0 || sub.freed {
			continue
		}
		id := sub.Request.Client
		c := h.client(id)
		if err := h.overRate(id, c, sub.deferred); err != nil {
			sub.closed = true
			delete(s.subs, sub)
			sub.kill(fmt.Errorf("transport: at the stream's start: %w", err))
			continue
		}
		h.rateUsed += sub.deferred
		c.rate += sub.deferred
		sub.cost, sub.deferred = sub.deferred, 0
	}
	if len(s.subs) == 0 {
		s.idleSince = now
	}
}

// newStream binds req's codec (and its Switch's) to the scenario and
// returns the stream, not yet added to the hub. It takes no hub lock.
func (h *Hub) newStream(key string, req Request) (*stream, error) {
	b, err := req.Codec.Bind(req.Scenario.Value())
	if err != nil {
		return nil, fmt.Errorf("transport: bind %s to %s: %w", req.Codec.Info().ID, req.Scenario.ID, err)
	}
	var preamble []byte
	if p, ok := b.(codec.Preambler); ok {
		// Before the scheduler owns the Binding: Preamble may encode.
		if preamble, err = p.Preamble(); err != nil {
			return nil, fmt.Errorf("transport: preamble of %s for %s: %w", req.Codec.Info().ID, req.Scenario.ID, err)
		}
	}
	v := req.Scenario.Value()
	conv, _ := b.(codec.Converter)
	if conv != nil {
		if v, err = conv.ToNative(v); err != nil {
			return nil, fmt.Errorf("transport: convert %s for %s: %w", req.Scenario.ID, req.Codec.Info().ID, err)
		}
	}
	var values []any
	for _, m := range req.Scenario.Messages {
		x := m.Value
		if conv != nil {
			if x, err = conv.ToNative(x); err != nil {
				return nil, fmt.Errorf("transport: convert %s line %d for %s: %w", req.Scenario.ID, m.Line, req.Codec.Info().ID, err)
			}
		}
		values = append(values, x)
	}
	now := time.Now()
	start := now
	if !req.Start.IsZero() {
		start = req.Start
	}
	s := &stream{
		key:       key,
		req:       req,
		binding:   b,
		preamble:  preamble,
		reuses:    req.Codec.Info().ReusesOutput,
		value:     v,
		values:    values,
		start:     start,
		due:       start,
		period:    float64(time.Second) / req.Rate,
		subs:      make(map[*Subscription]struct{}),
		ring:      make([]*Message, 0, min(h.opts.ReplayLen, 64)),
		idleSince: now,
		stats:     h.stats.get(req.Run, req.Codec.Info().ID, req.Client),
	}
	if err := s.bindSwitch(); err != nil {
		return nil, err
	}
	return s, nil
}

// add registers s and hands it to the scheduler. The caller holds h.mu.
func (h *Hub) add(s *stream) {
	s.stats.add(func(c *CodecStats) { c.Streams++ })
	h.client(s.req.Client).streams++
	h.streams[s.key] = s
	h.pending = append(h.pending, s)
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// join subscribes to s: the replay after req.LastEventID, then live
// messages. The caller holds h.mu.
func (h *Hub) join(s *stream, req Request) *Subscription {
	qlen := h.opts.QueueLen
	if req.QueueLen > 0 {
		qlen = req.QueueLen
	}
	q := make(chan *Message, qlen)
	sub := &Subscription{Request: req, C: q, Preamble: s.preamble, q: q, s: s, h: h, done: make(chan struct{})}
	s.mu.Lock()
	defer s.mu.Unlock()
	if req.LastEventID >= 0 {
		after := uint64(req.LastEventID) + 1
		for _, m := range s.ring {
			if m.Seq >= after {
				sub.Replay = append(sub.Replay, m)
			}
		}
		first := s.next
		if len(sub.Replay) > 0 {
			first = sub.Replay[0].Seq
		}
		if first > after {
			missed := first - after
			s.stats.add(func(c *CodecStats) { c.ReplayMisses += missed })
		}
		n := uint64(len(sub.Replay))
		s.stats.add(func(c *CodecStats) { c.Replayed += n })
	}
	if s.ended {
		close(q)
	} else {
		s.subs[sub] = struct{}{}
	}
	if s.paused {
		s.paused = false
		h.resumed = append(h.resumed, s)
		select {
		case h.wake <- struct{}{}:
		default:
		}
	}
	return sub
}

// stream is one paced sequence of messages. The scheduler goroutine owns
// binding, value, due and index, and is the only writer of next (under mu,
// which guards the rest).
type stream struct {
	key     string
	req     Request
	binding codec.Binding
	// preamble is what every connection sends first when the Binding is a
	// codec.Preambler (gob/stream); nil otherwise. Never written again.
	preamble []byte
	reuses   bool // binding overwrites its Marshal output: copy it
	value    any
	// values, for a message corpus (Scenario.Messages), are its messages
	// in the binding's form: message Seq carries values[Seq % len].
	values []any
	start  time.Time
	period float64 // ns between messages, in [1e5, 1e12] (MaxRate, MinRate)
	next   uint64
	due    time.Time
	index  int // in the scheduler's heap

	mu        sync.Mutex
	subs      map[*Subscription]struct{}
	ring      []*Message // the last ReplayLen messages, oldest first
	ringBytes int64      // their payload bytes
	ended     bool
	idleSince time.Time
	removed   bool
	paused    bool // no subscriber: not encoding until one joins
	// deferred is set while a subscription waits for the stream's start
	// to be charged its rate (chargeDeferred).
	deferred atomic.Bool

	stats *codecStats

	// to is the codec a Switch moves to; nil without one (hub_switch.go).
	to *switchTarget
}

// maxOffset caps how far after its start a stream schedules a message:
// 100 years, far inside time.Duration's 292. Any k and period give a time
// (a later one for a larger k, up to the cap), never an overflow.
const maxOffset = float64(100 * 365 * 24 * time.Hour)

func (s *stream) intended(k uint64) time.Time {
	off := math.Round(float64(k) * s.period)
	if !(off < maxOffset) { // NaN and +Inf too
		off = maxOffset
	}
	return s.start.Add(time.Duration(off))
}

// catchUp moves a resuming stream's next message forward so that at most
// back messages are behind the schedule at now, and sets its due time.
func (s *stream) catchUp(now time.Time, back uint64) {
	if el := float64(now.Sub(s.start)); el > 0 {
		due := math.Floor(el/s.period) + 1 // messages intended by now
		if due > float64(back) && due < float64(MaxCount) {
			target := uint64(due) - back
			if s.req.Count > 0 && target >= s.req.Count {
				target = s.req.Count - 1
			}
			if target > s.next {
				s.stats.add(func(c *CodecStats) { c.Skipped += target - s.next })
				s.mu.Lock()
				s.next = target // under mu: Subscribe reads it
				s.mu.Unlock()
			}
		}
	}
	s.due = s.intended(s.next)
}

// maxBurst is how many messages the scheduler publishes before it looks at
// Close and at new and resumed streams again.
const maxBurst = 1024

// schedule is the hub's single scheduler: it publishes every message whose
// intended time has come, then sleeps until the next one is due.
func (h *Hub) schedule() {
	defer close(h.done)
	var q streamHeap
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		h.mu.Lock()
		for _, s := range h.pending {
			heap.Push(&q, s)
		}
		h.pending = h.pending[:0]
		resumed := h.resumed
		h.resumed = nil
		h.mu.Unlock()

		now := time.Now()
		for _, s := range resumed {
			if s.index < q.Len() && q[s.index] == s {
				s.catchUp(now, uint64(h.opts.ReplayLen))
				heap.Fix(&q, s.index)
			}
		}
		n := 0
		for ; n < maxBurst && q.Len() > 0 && !q[0].due.After(now); n++ {
			if s := q[0]; h.step(s, now) {
				if s.due.Before(now) {
					// Still behind: queue it after the streams due
					// before now, so that a stream catching up takes
					// turns with them instead of going first until it
					// has caught up. Its messages keep their intended
					// times (Message.Intended does not come from due).
					s.due = now
				}
				heap.Fix(&q, 0)
			} else {
				heap.Pop(&q)
			}
		}
		if n == maxBurst {
			select {
			case <-h.quit:
				return
			default:
				continue // more are due: publish them after a look at new streams
			}
		}
		wait := time.Hour
		if q.Len() > 0 {
			wait = time.Until(q[0].due)
		}
		timer.Reset(wait)
		select {
		case <-timer.C:
		case <-h.wake:
		case <-h.quit:
			return
		}
	}
}

// step handles stream s whose due time has come: publish its next message,
// or retire it once idle or ended for Linger. It reports whether s stays
// scheduled.
func (h *Hub) step(s *stream, now time.Time) bool {
	s.mu.Lock()
	removed, ended, nsubs, idleSince := s.removed, s.ended, len(s.subs), s.idleSince
	idle := nsubs == 0 && now.Sub(idleSince) >= h.opts.Linger
	if !removed && !ended && !idle && nsubs == 0 {
		// Nobody listens: stop encoding until a subscriber joins (join
		// hands s back to the scheduler) or Linger passes.
		s.paused = true
		s.mu.Unlock()
		s.due = idleSince.Add(h.opts.Linger)
		return true
	}
	s.mu.Unlock()
	if removed {
		return false
	}
	if ended || idle {
		if idle && h.retire(s) {
			return false
		}
		s.due = now.Add(h.opts.Linger)
		return true
	}

	if s.deferred.Load() {
		h.chargeDeferred(s, now)
	}
	m := &Message{Seq: s.next, Intended: s.intended(s.next)}
	binding, value, reuses := s.encoderFor(m)
	payload, err := binding.Marshal(value)
	lag := time.Since(m.Intended)
	if err != nil {
		s.stats.add(func(c *CodecStats) { c.EncodeErrors++ })
		s.end(now)
		return true
	}
	if reuses {
		// The Binding overwrites its output on the next Marshal, while
		// queues and the replay ring still hold this message.
		payload = bytes.Clone(payload)
	}
	m.Payload = payload
	var delivered, dropped, overflows uint64
	s.mu.Lock()
	if h.opts.ReplayLen > 0 {
		h.keep(s, m)
	}
	for sub := range s.subs {
		select {
		case sub.q <- m:
			delivered++
		default:
			if h.opts.Overflow == Drop {
				dropped++
				continue
			}
			overflows++
			sub.closed = true
			delete(s.subs, sub)
			sub.kill(ErrOverflow)
		}
	}
	if len(s.subs) == 0 && overflows > 0 {
		s.idleSince = now
	}
	s.next++ // under mu: Subscribe reads it
	s.mu.Unlock()
	s.stats.publish(lag, delivered, dropped, overflows)

	if s.req.Count > 0 && s.next >= s.req.Count {
		s.end(now)
		return true
	}
	s.due = s.intended(s.next)
	return true
}

// keep adds m to the replay ring of s, dropping its oldest messages past
// ReplayLen, MaxStreamReplayBytes or (over every stream) MaxReplayBytes;
// m itself is not kept when it alone passes a byte cap. The caller holds
// s.mu.
func (h *Hub) keep(s *stream, m *Message) {
	n := int64(len(m.Payload))
	drop := 0
	for drop < len(s.ring) && (len(s.ring)-drop >= h.opts.ReplayLen ||
		s.ringBytes+n > h.opts.MaxStreamReplayBytes || h.replayBytes.Load()+n > h.opts.MaxReplayBytes) {
		d := int64(len(s.ring[drop].Payload))
		s.ringBytes -= d
		h.replayBytes.Add(-d)
		drop++
	}
	if drop > 0 {
		// Shift: ReplayLen pointers per message, cheap next to encoding.
		k := copy(s.ring, s.ring[drop:])
		clear(s.ring[k:])
		s.ring = s.ring[:k]
	}
	if s.ringBytes+n > h.opts.MaxStreamReplayBytes || h.replayBytes.Load()+n > h.opts.MaxReplayBytes {
		return
	}
	s.ring = append(s.ring, m)
	s.ringBytes += n
	h.replayBytes.Add(n)
}

// end marks s ended: subscribers' queues are closed after the last message.
func (s *stream) end(now time.Time) {
	s.mu.Lock()
	s.ended = true
	for sub := range s.subs {
		close(sub.q)
	}
	s.mu.Unlock()
	s.due = now // retire check follows after Linger via step
}

// retire removes s from the hub if it still has no subscribers.
func (h *Hub) retire(s *stream) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.subs) > 0 {
		return false
	}
	s.removed = true
	h.replayBytes.Add(-s.ringBytes)
	s.ringBytes = 0
	s.ring = nil
	if h.streams[s.key] == s {
		delete(h.streams, s.key)
		h.client(s.req.Client).streams--
		h.forget(s.req.Client)
	}
	return true
}

// Subscribers returns the number of open subscriptions and their rates
// summed, in messages/s: what Options.MaxSubscribers and MaxTotalRate cap.
func (h *Hub) Subscribers() (n int, rate float64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.subs, float64(h.rateUsed) / 1000
}

// ReplayBytes returns the payload bytes the replay buffers of every live
// stream hold: what Options.MaxReplayBytes caps.
func (h *Hub) ReplayBytes() int64 { return h.replayBytes.Load() }

// Streams returns the number of live streams.
func (h *Hub) Streams() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.streams)
}

type streamHeap []*stream

func (q streamHeap) Len() int           { return len(q) }
func (q streamHeap) Less(i, j int) bool { return q[i].due.Before(q[j].due) }
func (q streamHeap) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index = i
	q[j].index = j
}
func (q *streamHeap) Push(x any) {
	s := x.(*stream)
	s.index = len(*q)
	*q = append(*q, s)
}
func (q *streamHeap) Pop() any {
	old := *q
	s := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	return s
}
