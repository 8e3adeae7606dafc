package sse

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/serbench/serbench/transport"
)

// Options configure the SSE handler. The zero value means defaults.
type Options struct {
	// FlushEvery flushes the response after this many events. Default 1
	// (every event); range [1, 65536].
	FlushEvery int
	// FlushInterval bounds how long an event waits in the buffer when
	// FlushEvery > 1. Default 10ms; range [100µs, 10s].
	FlushInterval time.Duration
	// Retry is sent as the retry: field, the reconnection delay clients
	// should use. Default 1s; range (0, 1h].
	Retry time.Duration
	// WriteTimeout bounds writes and flushes to a client: a client that
	// does not read for between WriteTimeout/2 and WriteTimeout is
	// disconnected. Default 10s; range [1ms, 10m].
	WriteTimeout time.Duration
	// Gzip compresses the response with gzip (Content-Encoding: gzip, one
	// gzip member whose deflate data comes from
	// github.com/klauspost/compress/flate's StatelessDeflate) when the
	// request's Accept-Encoding allows it. Each live event is compressed
	// once per stream, not once per subscriber: its deflate blocks end on
	// a byte boundary and refer to nothing before them but the previous
	// event's text (which every subscriber that sent that event has in its
	// client's window), so the same bytes follow every gzip subscriber's
	// own header; a subscriber whose previous event was another (it just
	// joined) gets the event's blocks made without it, also once per
	// stream. Handler.Deflated counts these compressions. A response keeps
	// no compressor, only its CRC-32 and size for the trailer and its last
	// event's text. What a response sends only to its own connection (its
	// first lines, replayed events, the end) is compressed the same way for
	// it alone. Default false.
	Gzip bool
}

// Defaults of Options.
const (
	DefaultFlushEvery    = 1
	DefaultFlushInterval = 10 * time.Millisecond
	DefaultRetry         = time.Second
	DefaultWriteTimeout  = 10 * time.Second
)

// Effective returns o with defaults filled in, or an error naming the
// first field out of range.
func (o Options) Effective() (Options, error) {
	o.FlushEvery = cmp.Or(o.FlushEvery, DefaultFlushEvery)
	o.FlushInterval = cmp.Or(o.FlushInterval, DefaultFlushInterval)
	o.Retry = cmp.Or(o.Retry, DefaultRetry)
	o.WriteTimeout = cmp.Or(o.WriteTimeout, DefaultWriteTimeout)
	switch {
	case o.FlushEvery < 1 || o.FlushEvery > 65536:
		return o, fmt.Errorf("sse: invalid FlushEvery %d (range is [1, 65536])", o.FlushEvery)
	case o.FlushInterval < 100*time.Microsecond || o.FlushInterval > 10*time.Second:
		return o, fmt.Errorf("sse: invalid FlushInterval %v (range is [100µs, 10s])", o.FlushInterval)
	case o.Retry < 0 || o.Retry > time.Hour:
		return o, fmt.Errorf("sse: invalid Retry %v (range is (0, 1h])", o.Retry)
	case o.WriteTimeout < time.Millisecond || o.WriteTimeout > 10*time.Minute:
		return o, fmt.Errorf("sse: invalid WriteTimeout %v (range is [1ms, 10m])", o.WriteTimeout)
	}
	return o, nil
}

// Handler serves GET ?scenario=ID&codec=ID&rate=R (see transport.Request
// for every parameter) as an event stream from a Hub.
type Handler struct {
	hub      *transport.Hub
	rv       transport.Resolver
	opts     Options
	deflated atomic.Int64 // see Deflated
}

// Deflated returns how many live events the handler has compressed for
// gzip responses since it was made: for each event of a stream, one for
// its subscribers that sent the previous event and one for those that did
// not, however many gzip subscribers it has (Options.Gzip).
func (h *Handler) Deflated() int64 { return h.deflated.Load() }

// gzipKey is the transport.Message.Shared key of an event's deflate
// blocks: the event's text depends on the message and on event and
// binary; after is the Seq+1 of the message whose text is the blocks'
// dictionary (0: none).
type gzipKey struct {
	event  string
	binary bool
	after  uint64
}

// NewHandler validates opts and returns a handler on hub.
func NewHandler(hub *transport.Hub, rv transport.Resolver, opts Options) (*Handler, error) {
	o, err := opts.Effective()
	if err != nil {
		return nil, err
	}
	return &Handler{hub: hub, rv: rv, opts: o}, nil
}

// Options returns the options in effect.
func (h *Handler) Options() Options { return h.opts }

// headers sets a stream's response headers and reports whether it is
// gzipped.
func (h *Handler) headers(w http.ResponseWriter, r *http.Request) bool {
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	gz := h.opts.Gzip && acceptsGzip(r.Header)
	if h.opts.Gzip {
		hd.Add("Vary", "Accept-Encoding")
	}
	if gz {
		hd.Set("Content-Encoding", "gzip")
	}
	return gz
}

// ServeHTTP implements http.Handler. Bad parameters get 400 with a one-line
// message naming the bad value; a full or closed hub gets 503.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "sse: method "+r.Method+" not allowed", http.StatusMethodNotAllowed)
		return
	}
	req, err := h.rv.ParseRequest(r.URL.Query(), "")
	if err == nil {
		if v := r.Header.Get("Last-Event-ID"); v != "" {
			req.LastEventID, err = transport.ParseEventID(v)
		}
	}
	if err != nil {
		http.Error(w, oneLine(err), http.StatusBadRequest)
		return
	}
	req.Client = transport.ClientAddr(r.RemoteAddr)
	if r.Method == http.MethodHead {
		// The answer a GET would get, without a stream: a HEAD holds
		// nothing, so it creates nothing.
		if err := h.hub.Admits(req); err != nil {
			http.Error(w, oneLine(err), http.StatusServiceUnavailable)
			return
		}
		h.headers(w, r)
		w.WriteHeader(http.StatusOK)
		return
	}
	sub, err := h.hub.Subscribe(req)
	if err != nil {
		http.Error(w, oneLine(err), http.StatusServiceUnavailable)
		return
	}
	defer sub.Close()
	gz := h.headers(w, r)
	w.WriteHeader(http.StatusOK)

	cw := &connWriter{w: w, rc: http.NewResponseController(w), timeout: h.opts.WriteTimeout}
	// The client sends nothing more: lift the server's ReadTimeout, which
	// would otherwise end the stream (net/http cancels the request when
	// its background read of the connection times out). A client that
	// goes away is still noticed at once (the read ends), and one that
	// stops reading by the write deadline.
	if err := cw.rc.SetReadDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return
	}
	if gz {
		cw.startGzip()
		defer cw.closeGzip()
	}
	binary := req.Codec.Info().Binary
	event := req.Scenario.ID

	buf := make([]byte, 0, 4096)
	buf = fmt.Appendf(buf, ": serbench stream scenario=%s codec=%s rate=%g\nretry: %d\n\n",
		req.Scenario.ID, req.Codec.Info().ID, req.Rate, h.opts.Retry.Milliseconds())
	if sub.Preamble != nil {
		buf = AppendPreamble(buf, sub.Preamble, binary)
	}
	for _, m := range sub.Replay {
		buf = AppendEvent(buf, event, m, binary)
	}
	if err := cw.write(buf, true); err != nil {
		return
	}

	var flushTimer *time.Timer
	var flushC <-chan time.Time
	if h.opts.FlushEvery > 1 {
		flushTimer = time.NewTimer(time.Hour)
		flushTimer.Stop()
		defer flushTimer.Stop()
		flushC = flushTimer.C
	}
	pending := 0
	var prevText []byte // a gzip response's last live event, if after is set
	var after uint64    // that event's Seq+1; 0: none since the first lines
	ctx := r.Context()
	for {
		select {
		case m, ok := <-sub.C:
			if !ok {
				_ = cw.write(AppendEnd(buf[:0], req.Count), true)
				return
			}
			buf = AppendEvent(buf[:0], event, m, binary)
			var z []byte
			if gz {
				var dict []byte
				if after != 0 {
					dict = prevText
				}
				z = m.Shared(gzipKey{event, binary, after}, func() any {
					h.deflated.Add(1)
					z, _ := Deflate(buf, dict) // on error nil: send deflates again and returns it
					return z
				}).([]byte)
			}
			pending++
			flush := pending >= h.opts.FlushEvery
			if err := cw.send(buf, z, flush); err != nil {
				return
			}
			if gz {
				prevText, buf, after = buf, prevText[:0], m.Seq+1
			}
			if flush {
				pending = 0
			} else if pending == 1 && flushTimer != nil {
				flushTimer.Reset(h.opts.FlushInterval)
			}
		case <-flushC:
			if pending > 0 {
				if err := cw.write(nil, true); err != nil {
					return
				}
				pending = 0
			}
		case <-sub.Done():
			if errors.Is(sub.Err(), transport.ErrClosed) {
				_ = cw.write([]byte(": server shutting down\n\n"), true)
			}
			return
		case <-ctx.Done():
			return
		}
	}
}

// connWriter writes to one response with a write deadline.
type connWriter struct {
	w        http.ResponseWriter
	rc       *http.ResponseController
	timeout  time.Duration
	deadline time.Time
	gz       *gzipConn // nil: uncompressed
}

// write writes p (if any) and, when flush is set, flushes. The write
// deadline is moved to now+timeout whenever less than half of it is left,
// so a write never waits between timeout/2 and timeout (the deadline is not
// reset on every event, which costs a timer update each).
func (cw *connWriter) write(p []byte, flush bool) error { return cw.send(p, nil, flush) }

// send is write for the text p whose deflate blocks (see Deflate) are z:
// a gzip response writes z, or deflates p itself when z is nil.
func (cw *connWriter) send(p, z []byte, flush bool) error {
	if now := time.Now(); cw.deadline.Sub(now) < cw.timeout/2 {
		cw.deadline = now.Add(cw.timeout)
		if err := cw.rc.SetWriteDeadline(cw.deadline); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return err
		}
	}
	if len(p) > 0 {
		out := p
		if cw.gz != nil {
			if z == nil {
				var err error
				if z, err = Deflate(p, nil); err != nil {
					return err
				}
			}
			if h := cw.gz.header(); h != nil {
				if _, err := cw.w.Write(h); err != nil {
					return err
				}
			}
			cw.gz.count(p)
			out = z
		}
		if _, err := cw.w.Write(out); err != nil {
			return err
		}
	}
	if flush {
		if err := cw.rc.Flush(); err != nil {
			return err
		}
	}
	return nil
}

func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", " ")
}
