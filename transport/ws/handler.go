package ws

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/serbench/serbench/transport"
)

// Handler serves GET ?scenario=ID&codec=ID&rate=R (see transport.Request
// for every parameter) as a WebSocket stream from a Hub.
type Handler struct {
	hub      *transport.Hub
	rv       transport.Resolver
	opts     Options
	byProto  map[string]string // subprotocol -> codec ID
	allow    map[string]bool
	allowAll bool
}

// NewHandler validates opts and returns a handler on hub.
func NewHandler(hub *transport.Hub, rv transport.Resolver, opts Options) (*Handler, error) {
	o, err := opts.Effective()
	if err != nil {
		return nil, err
	}
	h := &Handler{hub: hub, rv: rv, opts: o, byProto: map[string]string{}, allow: map[string]bool{}}
	for _, id := range rv.Codecs.IDs() {
		h.byProto[Subprotocol(id)] = id
	}
	for _, a := range o.AllowOrigins {
		if a == "*" {
			h.allowAll = true
		}
		h.allow[strings.ToLower(strings.TrimRight(a, "/"))] = true
	}
	return h, nil
}

// Options returns the options in effect.
func (h *Handler) Options() Options { return h.opts }

// CheckOrigin reports whether r may upgrade: no Origin header, the same
// origin (Origin's host equals the Host header), or an allowed origin.
func (h *Handler) CheckOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || h.allowAll {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	return h.allow[strings.ToLower(origin)]
}

// ServeHTTP implements http.Handler. Bad parameters get 400 with a one-line
// message naming the bad value, a foreign origin 403, a full hub 503.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	negotiated, proto := "", ""
	for _, p := range websocket.Subprotocols(r) {
		if id, ok := h.byProto[p]; ok {
			negotiated, proto = id, p
			break
		}
	}
	req, err := h.rv.ParseRequest(r.URL.Query(), negotiated)
	if err != nil {
		http.Error(w, strings.ReplaceAll(err.Error(), "\n", " "), http.StatusBadRequest)
		return
	}
	if proto == "" {
		// codec= chose the codec; echo its subprotocol if the client offered it.
		for _, p := range websocket.Subprotocols(r) {
			if p == Subprotocol(req.Codec.Info().ID) {
				proto = p
			}
		}
	}
	if !h.CheckOrigin(r) {
		http.Error(w, "ws: origin "+r.Header.Get("Origin")+" not allowed (use -allow-origin)", http.StatusForbidden)
		return
	}
	up := websocket.Upgrader{
		HandshakeTimeout: 10 * time.Second,
		ReadBufferSize:   1024,
		WriteBufferSize:  4096,
		CheckOrigin:      func(*http.Request) bool { return true }, // checked above
	}
	up.EnableCompression = h.opts.Compress // permessage-deflate, if the client offers it
	if proto != "" {
		up.Subprotocols = []string{proto}
	}
	req.Client = transport.ClientAddr(r.RemoteAddr)
	sub, err := h.hub.Subscribe(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	defer sub.Close()
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade has replied with an HTTP error
	}
	defer conn.Close()
	h.serve(conn, sub)
}

// serve runs the connection: this goroutine writes the messages, a
// second one reads (control frames and the client's close) until the
// connection ends, and a timer pings (startPings).
//
// The messages' loop waits on three channels, not on a fourth for the
// pings: a select costs in proportion to its cases, and at fan-out 100
// this loop runs once per delivered message.
func (h *Handler) serve(conn *websocket.Conn, sub *transport.Subscription) {
	conn.SetReadLimit(h.opts.ReadLimit)
	_ = conn.SetReadDeadline(time.Now().Add(h.opts.PongWait))
	conn.SetPongHandler(func(string) error {
		return conn.SetReadDeadline(time.Now().Add(h.opts.PongWait))
	})
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		for {
			if _, _, err := conn.NextReader(); err != nil {
				return
			}
		}
	}()

	frameType := websocket.TextMessage
	if sub.Request.Codec.Info().Binary {
		frameType = websocket.BinaryMessage
	}
	pings := startPings(conn, h.opts.PingInterval, h.opts.WriteTimeout)
	defer pings.stop()
	send := func(m *transport.Message) error {
		pm, err := prepared(m, messageFrameType(m, frameType))
		if err != nil {
			return err
		}
		_ = conn.SetWriteDeadline(time.Now().Add(h.opts.WriteTimeout))
		return conn.WritePreparedMessage(pm)
	}
	closeWith := func(code int, reason string) {
		msg := websocket.FormatCloseMessage(code, reason)
		if err := conn.WriteControl(websocket.CloseMessage, msg, time.Now().Add(h.opts.WriteTimeout)); err != nil {
			return
		}
		// Wait for the client's close frame: the reader goroutine returns
		// when it arrives (gorilla answers a client-initiated close itself).
		select {
		case <-readDone:
		case <-time.After(h.opts.CloseWait):
		}
	}
	defer func() {
		conn.Close()
		<-readDone
	}()

	if sub.Preamble != nil {
		if send(&transport.Message{Seq: PreambleSeq, Intended: time.Unix(0, 0), Payload: sub.Preamble}) != nil {
			return
		}
	}
	for _, m := range sub.Replay {
		if send(m) != nil {
			return
		}
	}
	for {
		select {
		case m, ok := <-sub.C:
			if !ok {
				closeWith(websocket.CloseNormalClosure, EndReason)
				return
			}
			if send(m) != nil {
				return
			}
		case <-sub.Done():
			code, reason := websocket.CloseTryAgainLater, "overflow"
			if errors.Is(sub.Err(), transport.ErrClosed) {
				code, reason = websocket.CloseGoingAway, "shutdown"
			}
			closeWith(code, reason)
			return
		case <-readDone:
			return // client closed or went away
		}
	}
}

// preparedForm is a message's prepared WebSocket frame (or the error of
// preparing it), shared by its subscribers (transport.Message.Shared).
type preparedForm struct {
	pm  *websocket.PreparedMessage
	err error
}

// prepared returns m as one WebSocket message of frameType (header, tag,
// payload) prepared once for all the connections it goes to
// (websocket.PreparedMessage): with permessage-deflate the message is
// compressed once, without context takeover, and every connection that
// negotiated it sends the same compressed frame; the others send the
// plain frame.
func prepared(m *transport.Message, frameType int) (*websocket.PreparedMessage, error) {
	f := m.Shared(frameType, func() any {
		var hdr [HeaderLen + 64]byte // room for a switching stream's tag
		data := append(AppendTag(AppendHeader(hdr[:0], m), m), m.Payload...)
		pm, err := websocket.NewPreparedMessage(frameType, data)
		return preparedForm{pm, err}
	}).(preparedForm)
	return f.pm, f.err
}

// pinger pings one connection every interval from a timer's goroutine
// (gorilla/websocket's WriteControl may run beside the other writes): a
// failed ping, or one that waited WriteTimeout behind a blocked write,
// closes the connection, which ends its reader and so its writer.
type pinger struct {
	mu      sync.Mutex
	t       *time.Timer
	stopped bool
}

func startPings(conn *websocket.Conn, interval, writeTimeout time.Duration) *pinger {
	p := &pinger{}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.t = time.AfterFunc(interval, func() {
		if conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeTimeout)) != nil {
			conn.Close()
			return
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.stopped {
			p.t.Reset(interval)
		}
	})
	return p
}

// stop ends the pings; a ping under way may still be written.
func (p *pinger) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	p.t.Stop()
}
