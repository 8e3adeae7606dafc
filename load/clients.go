package load

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/sse"
	"github.com/serbench/serbench/transport/ws"
)

// MaxMessageBytes caps one WebSocket message the load client accepts (SSE
// events are capped by sse.Reader's MaxEventBytes, 1 MiB): 16 MiB.
const MaxMessageBytes = 16 << 20

// maxReconnects bounds how often one connection reconnects after losing
// its stream early (a queue overflow, say).
const maxReconnects = 5

// errFatal marks errors after which a connection does not reconnect.
type errFatal struct{ error }

func (e errFatal) Unwrap() error { return e.error }

// runConn drives connection c until its stream ends, ctx is done or it
// fails for good, reconnecting from its last sequence number in between.
func runConn(ctx context.Context, c *conn, once func(ctx context.Context, c *conn) (ended bool, err error)) {
	var last error
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			c.st.reconnects++
			t := time.NewTimer(50 * time.Millisecond)
			select {
			case <-ctx.Done():
			case <-t.C:
			}
			t.Stop()
		}
		ended, err := once(ctx, c)
		if ended {
			c.finish(nil)
			return
		}
		if ctx.Err() != nil {
			c.finish(last)
			return
		}
		c.st.errors++
		last = err
		var fatal errFatal
		if errors.As(err, &fatal) || attempt >= maxReconnects {
			c.finish(err)
			return
		}
	}
}

// sseClient reads one SSE response for connection c.
type sseClient struct {
	http  *http.Client
	base  *url.URL
	query url.Values
	gzip  bool // ask for Content-Encoding: gzip
}

func (s *sseClient) once(ctx context.Context, c *conn) (bool, error) {
	u := *s.base
	u.Path = strings.TrimSuffix(u.Path, "/") + "/sse"
	u.RawQuery = resumeQuery(s.query, c.lastID, false).Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return false, errFatal{err}
	}
	req.Header.Set("Accept", "text/event-stream")
	if s.gzip {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	if c.lastID >= 0 {
		req.Header.Set("Last-Event-ID", strconv.FormatInt(c.lastID, 10))
	}
	resp, err := s.http.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		line, _ := bufio.NewReader(io.LimitReader(resp.Body, 512)).ReadString('\n')
		err := fmt.Errorf("load: GET %s: %s: %s", u.Path, resp.Status, strings.TrimSpace(line))
		if resp.StatusCode < 500 {
			return false, errFatal{err}
		}
		return false, err
	}
	body, err := decompressed(resp, c.g)
	if err != nil {
		return false, err
	}
	rd := sse.NewReader(body)
	var raw []byte
	for {
		ev, err := rd.Next()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return false, fmt.Errorf("load: sse read: %w", err)
		}
		now := time.Now()
		if string(ev.Type) == sse.EndEvent {
			return true, nil
		}
		if string(ev.Type) == sse.PreambleEvent {
			payload := ev.Data
			if c.g.binary {
				if payload, err = base64.StdEncoding.AppendDecode(nil, ev.Data); err != nil {
					c.st.decodeErrors++
					continue
				}
			}
			c.preamble(payload, len(ev.Data))
			continue
		}
		seq, perr := strconv.ParseUint(string(ev.ID), 10, 64)
		if perr != nil || !ev.HasT {
			c.st.decodeErrors++
			continue
		}
		payload := ev.Data
		binary := c.g.binary
		if c.sw != nil {
			binary = c.sw.binaryOf(string(ev.Type))
		}
		if binary {
			raw = raw[:0]
			raw, err = base64.StdEncoding.AppendDecode(raw, ev.Data)
			if err != nil {
				c.st.decodeErrors++
				continue
			}
			payload = raw
		}
		if c.sw != nil {
			c.sw.message(c, now, seq, ev.T, string(ev.Type), payload, len(ev.Data))
			continue
		}
		c.message(now, seq, ev.T, payload, len(ev.Data))
	}
}

// wsClient reads one WebSocket connection for connection c.
type wsClient struct {
	dialer *websocket.Dialer
	base   *url.URL
	query  url.Values
	proto  string
}

func (s *wsClient) once(ctx context.Context, c *conn) (bool, error) {
	u := *s.base
	switch u.Scheme {
	case "http":
		u.Scheme = "ws"
	case "https":
		u.Scheme = "wss"
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/ws"
	u.RawQuery = resumeQuery(s.query, c.lastID, true).Encode()
	conn, resp, err := s.dialer.DialContext(ctx, u.String(), nil)
	if err != nil {
		if resp != nil && resp.StatusCode >= 400 && resp.StatusCode < 500 {
			return false, errFatal{fmt.Errorf("load: dial %s: %s: %w", u.Path, resp.Status, err)}
		}
		return false, err
	}
	defer conn.Close()
	if negotiatedDeflate(resp) {
		c.g.compressed.Store(true)
	}
	if got := conn.Subprotocol(); got != s.proto {
		return false, errFatal{fmt.Errorf("load: server chose subprotocol %q, want %q", got, s.proto)}
	}
	stop := context.AfterFunc(ctx, func() {
		_ = conn.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(websocket.CloseGoingAway, ""), time.Now().Add(time.Second))
		conn.Close()
	})
	defer stop()
	conn.SetReadLimit(MaxMessageBytes)
	want := websocket.TextMessage
	if c.g.binary {
		want = websocket.BinaryMessage
	}
	var buf []byte // each message in turn: nothing keeps a payload
	for {
		typ, msg, err := readMessage(conn, buf[:0])
		buf = msg
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) && ce.Code == websocket.CloseNormalClosure && ce.Text == ws.EndReason {
				return true, nil // gorilla has answered the close frame
			}
			return false, fmt.Errorf("load: ws read: %w", err)
		}
		now := time.Now()
		if c.sw != nil {
			c.sw.wsMessage(c, now, typ, msg)
			continue
		}
		seq, intended, payload, err := ws.ParseHeader(msg)
		if err != nil || typ != want {
			c.st.decodeErrors++
			continue
		}
		if seq == ws.PreambleSeq {
			// Its Binding may keep the bytes it read: not the buffer's.
			c.preamble(bytes.Clone(payload), len(payload))
			continue
		}
		c.message(now, seq, intended, payload, len(payload))
	}
}

// readMessage reads the next message into dst, as conn.ReadMessage does
// into a new slice: the load client decodes a message before it reads
// the next, so one buffer serves a connection's every message.
func readMessage(conn *websocket.Conn, dst []byte) (typ int, msg []byte, err error) {
	typ, r, err := conn.NextReader()
	if err != nil {
		return typ, dst, err
	}
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if err == io.EOF {
			return typ, dst, nil
		}
		if err != nil {
			return typ, dst, err
		}
	}
}

// resumeQuery returns q for a first connection (lastID < 0); to resume, a
// copy without start= (the stream exists, and start may be too far in the
// past by now) and, when inQuery, with last_event_id=.
func resumeQuery(q url.Values, lastID int64, inQuery bool) url.Values {
	if lastID < 0 {
		return q
	}
	r := url.Values{}
	for k, v := range q {
		r[k] = v
	}
	r.Del("start")
	if inQuery {
		r.Set("last_event_id", strconv.FormatInt(lastID, 10))
	}
	return r
}

// streamQuery is the query of stream i of run, shared by its Fanout
// connections.
func streamQuery(o Options, codecID string, count uint64, run string, i int, withCodec bool, start time.Time) url.Values {
	if !withCodec {
		codecID = ""
	}
	return transport.Query(o.Scenario, codecID, o.Rate, count, run+"-"+strconv.Itoa(i), run, start)
}
