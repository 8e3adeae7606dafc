package server_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/serbench/serbench/internal/servertest"
	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/server"
	"github.com/serbench/serbench/transport/sse"
	"github.com/serbench/serbench/transport/ws"
)

func TestBadQuery(t *testing.T) {
	base := servertest.Start(t, server.Options{}).URL
	for _, path := range []string{"/sse", "/ws"} {
		for _, tc := range []struct{ q, bad string }{
			{"scenario=sse-event&codec=nope&rate=1", "nope"},
			{"scenario=nope&codec=encoding/json&rate=1", "nope"},
			{"scenario=sse-event&codec=encoding/json&rate=-3", "-3"},
			{"scenario=sse-event&codec=encoding/json&rate=fast", "fast"},
		} {
			t.Run(path+"?"+tc.q, func(t *testing.T) {
				resp, err := http.Get(base + path + "?" + tc.q)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				msg := strings.TrimSpace(string(body))
				if resp.StatusCode != http.StatusBadRequest || strings.Contains(msg, "\n") || !strings.Contains(msg, strconv.Quote(tc.bad)) {
					t.Fatalf("status %d, body %q: want 400 and one line naming %q", resp.StatusCode, msg, tc.bad)
				}
			})
		}
	}
}

// readSSE reads up to n events (all when n < 0) of a GET and returns their
// ids (the end event as "end") and the response.
func readSSE(t *testing.T, u string, lastID string, n int) ([]string, *http.Response) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rd := sse.NewReader(resp.Body)
	var ids []string
	for n < 0 || len(ids) < n {
		ev, err := rd.Next()
		if err != nil {
			break
		}
		if string(ev.Type) == sse.EndEvent {
			ids = append(ids, "end")
			break
		}
		ids = append(ids, string(ev.ID))
	}
	return ids, resp
}

func seqList(from, to int) []string {
	var s []string
	for i := from; i < to; i++ {
		s = append(s, strconv.Itoa(i))
	}
	return s
}

func TestSSEHeadersAndEvents(t *testing.T) {
	base := servertest.Start(t, server.Options{}).URL
	ids, resp := readSSE(t, base+"/sse?scenario=sse-event&codec=msgpack&rate=200&count=3&stream=h", "", -1)
	for k, want := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if got, want := strings.Join(ids, ","), "0,1,2,end"; got != want {
		t.Fatalf("events %s, want %s", got, want)
	}
}

// A client that reconnects with Last-Event-ID gets the rest of the stream
// with no gap and no duplicate.
func TestSSEResume(t *testing.T) {
	base := servertest.Start(t, server.Options{}).URL
	u := base + "/sse?scenario=annotation&codec=encoding/json&rate=100&count=30&stream=resume"
	first, _ := readSSE(t, u, "", 5)
	rest, _ := readSSE(t, u, first[len(first)-1], -1)
	got := strings.Join(append(first, rest...), ",")
	want := strings.Join(append(seqList(0, 30), "end"), ",")
	if got != want {
		t.Fatalf("events\n%s\nwant\n%s", got, want)
	}
}

func wsURL(base, q string) string {
	return "ws" + strings.TrimPrefix(base, "http") + "/ws?" + q
}

func TestWSOrigin(t *testing.T) {
	q := "scenario=ws-message&codec=encoding/json&rate=100&count=1"
	for _, tc := range []struct {
		name   string
		allow  []string
		origin func(base string) string
		ok     bool
	}{
		{"none", nil, func(string) string { return "" }, true},
		{"same", nil, func(base string) string { return base }, true},
		{"cross", nil, func(string) string { return "http://evil.example" }, false},
		{"allowed", []string{"http://evil.example"}, func(string) string { return "http://evil.example" }, true},
		{"any", []string{"*"}, func(string) string { return "http://other.example" }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := servertest.Start(t, server.Options{WS: ws.Options{AllowOrigins: tc.allow}}).URL
			h := http.Header{}
			if o := tc.origin(base); o != "" {
				h.Set("Origin", o)
			}
			c, resp, err := websocket.DefaultDialer.Dial(wsURL(base, q), h)
			if tc.ok {
				if err != nil {
					t.Fatalf("dial: %v", err)
				}
				c.Close()
				return
			}
			if err == nil {
				c.Close()
				t.Fatal("cross-origin upgrade accepted")
			}
			if resp == nil || resp.StatusCode != http.StatusForbidden {
				t.Fatalf("want 403, got %v (%v)", resp, err)
			}
		})
	}
}

func TestWSSubprotocolAndEnd(t *testing.T) {
	base := servertest.Start(t, server.Options{}).URL
	d := websocket.Dialer{Subprotocols: []string{"other", ws.Subprotocol("msgpack")}}
	c, _, err := d.Dial(wsURL(base, "scenario=ws-message&rate=200&count=5&stream=sp"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Subprotocol() != "serbench.msgpack" {
		t.Fatalf("subprotocol %q", c.Subprotocol())
	}
	for i := range 5 {
		typ, msg, err := c.ReadMessage()
		if err != nil {
			t.Fatal(err)
		}
		seq, _, _, err := ws.ParseHeader(msg)
		if err != nil || seq != uint64(i) || typ != websocket.BinaryMessage {
			t.Fatalf("message %d: type %d seq %d err %v", i, typ, seq, err)
		}
	}
	_, _, err = c.ReadMessage()
	if !websocket.IsCloseError(err, websocket.CloseNormalClosure) {
		t.Fatalf("want close 1000, got %v", err)
	}
}

// After every client has left, the process is back to its goroutines
// before the clients came (streams have no goroutines of their own).
func TestGoroutinesReturnToBaseline(t *testing.T) {
	base := servertest.Start(t, server.Options{}).URL
	tr := &http.Transport{}
	hc := &http.Client{Transport: tr}
	// Warm up (the accept loop starts asynchronously), then take the
	// baseline once the count is steady.
	if resp, err := hc.Get(base + "/"); err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	tr.CloseIdleConnections()
	baseline := steadyGoroutines()
	done := make(chan error, 40)
	for i := range 20 {
		go func() {
			resp, err := hc.Get(fmt.Sprintf("%s/sse?scenario=sse-event&codec=sonic&rate=100&count=10&stream=g%d", base, i))
			if err != nil {
				done <- err
				return
			}
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			done <- err
		}()
		go func() {
			c, _, err := websocket.DefaultDialer.Dial(wsURL(base, fmt.Sprintf("scenario=ws-message&codec=cbor&rate=100&count=10&stream=w%d", i)), nil)
			if err != nil {
				done <- err
				return
			}
			defer c.Close()
			for {
				if _, _, err := c.ReadMessage(); err != nil {
					if websocket.IsCloseError(err, websocket.CloseNormalClosure) {
						err = nil
					}
					done <- err
					return
				}
			}
		}()
	}
	for range 40 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	tr.CloseIdleConnections()
	var n int
	for range 100 { // bounded wait: up to 5s
		if n = runtime.NumGoroutine(); n <= baseline {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	buf := make([]byte, 1<<16)
	t.Fatalf("%d goroutines, baseline %d\n%s", n, baseline, buf[:runtime.Stack(buf, true)])
}

// Cancelling Serve's context ends open streams and Serve returns nil.
func TestGracefulShutdown(t *testing.T) {
	ts := servertest.Start(t, server.Options{})
	base := ts.URL
	resp, err := http.Get(base + "/sse?scenario=sse-event&codec=encoding/json&rate=50")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	c, _, err := websocket.DefaultDialer.Dial(wsURL(base, "scenario=ws-message&codec=encoding/json&rate=50"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rd := sse.NewReader(resp.Body)
	if _, err := rd.Next(); err != nil {
		t.Fatal(err)
	}
	wsErr := make(chan error, 1)
	go func() {
		for {
			if _, _, err := c.ReadMessage(); err != nil {
				wsErr <- err
				return
			}
		}
	}()
	if err := ts.Stop(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	for {
		if _, err := rd.Next(); err != nil {
			break // the response ended
		}
	}
	if err := <-wsErr; !websocket.IsCloseError(err, websocket.CloseGoingAway) {
		t.Fatalf("ws: want close 1001, got %v", err)
	}
}

func TestIndexPage(t *testing.T) {
	base := servertest.Start(t, server.Options{}).URL
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(b), "/static/page.js") {
		t.Fatalf("index: %d %.80q", resp.StatusCode, b)
	}
	// Every script the page loads is served by the binary (no CDN).
	for _, m := range regexp.MustCompile(`<script src="([^"]+)"`).FindAllStringSubmatch(string(b), -1) {
		if !strings.HasPrefix(m[1], "/static/") {
			t.Errorf("index loads %s from outside /static/", m[1])
			continue
		}
		r, err := http.Get(base + m[1])
		if err != nil {
			t.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, r.Body)
		r.Body.Close()
		if r.StatusCode != 200 || n < 100 {
			t.Errorf("%s: %s, %d bytes", m[1], r.Status, n)
		}
	}
	for _, path := range []string{"/browser/proto.json", "/browser/codecs?scenario=user-event", "/static/vendor/README.md"} {
		r, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != 200 {
			t.Errorf("%s: %s", path, r.Status)
		}
	}
	if r, err := http.Get(base + "/browser/codecs?scenario=nope"); err != nil || r.StatusCode != 400 {
		t.Errorf("/browser/codecs?scenario=nope: %v %v, want 400", r.Status, err)
	}
}

// steadyGoroutines returns the goroutine count once it has not changed for
// a few polls (bounded: at most 2s).
func steadyGoroutines() int {
	n, same := runtime.NumGoroutine(), 0
	for i := 0; i < 100 && same < 3; i++ {
		time.Sleep(20 * time.Millisecond)
		if m := runtime.NumGoroutine(); m == n {
			same++
		} else {
			n, same = m, 0
		}
	}
	return n
}

// A client that never reads its response does not hold up the others on the
// same stream: they get every message in order while the stalled one is cut
// off (queue overflow or write timeout). A live client the loaded machine
// holds back is cut too and resumes; the replay ring holds the whole stream
// (4,000 user-event messages of about 1.2 KB in JSON, 4.7 MB: the default
// 256 KiB per stream keeps about 220 of them), so resuming loses nothing.
func TestStalledClientDoesNotBlockOthers(t *testing.T) {
	ts := servertest.Start(t, server.Options{
		Hub: transport.Options{QueueLen: 256, ReplayLen: 8192, MaxStreamReplayBytes: 64 << 20},
		SSE: sse.Options{WriteTimeout: 300 * time.Millisecond},
	})
	base, srv := ts.URL, ts.Server
	const count = 4000
	q := fmt.Sprintf("/sse?scenario=user-event&codec=encoding/json&rate=2000&count=%d&stream=stall", count)
	stalled, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	if err := stalled.(*net.TCPConn).SetReadBuffer(4096); err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Fprintf(stalled, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", q); err != nil {
		t.Fatal(err)
	}
	// Live clients join a stream already running: each must see a gap-free
	// run from where it joined to the end.
	type result struct {
		ids []string
		err error
	}
	res := make(chan result, 3)
	for range 3 {
		go func() {
			// A live client that falls behind is disconnected too; it resumes
			// with Last-Event-ID, as EventSource does.
			var ids []string
			// Every attempt but the last delivers at least one event,
			// so count attempts are enough; one that delivers nothing
			// twice in a row is a server that stopped sending.
			idle := 0
			for attempt := 0; attempt < count && idle < 2; attempt++ {
				before := len(ids)
				req, _ := http.NewRequest(http.MethodGet, base+q, nil)
				if len(ids) > 0 {
					req.Header.Set("Last-Event-ID", ids[len(ids)-1])
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					res <- result{ids, err}
					return
				}
				rd := sse.NewReader(resp.Body)
				for {
					ev, err := rd.Next()
					if err != nil {
						break
					}
					if string(ev.Type) == sse.EndEvent {
						resp.Body.Close()
						res <- result{ids, nil}
						return
					}
					ids = append(ids, string(ev.ID))
				}
				resp.Body.Close()
				if len(ids) == before {
					idle++
				} else {
					idle = 0
				}
			}
			res <- result{ids, fmt.Errorf("no end event, and two attempts in a row with no event")}
		}()
	}
	for range 3 {
		r := <-res
		if r.err != nil {
			t.Fatalf("live client: %v after %d events; server stats %+v", r.err, len(r.ids), srv.Hub.Stats("").Codecs[0])
		}
		if len(r.ids) == 0 {
			t.Fatal("live client got no events")
		}
		first, _ := strconv.Atoi(r.ids[0])
		if got, want := strings.Join(r.ids, ","), strings.Join(seqList(first, count), ","); got != want {
			t.Fatalf("live client: %d events from %d, not a gap-free run to %d; server stats %+v", len(r.ids), first, count-1, srv.Hub.Stats("").Codecs[0])
		}
	}
	c := srv.Hub.Stats("").Codecs[0]
	if c.Published != count || c.Dropped != 0 {
		t.Fatalf("stats %+v", c)
	}
	t.Logf("server stats: %+v", c)
}

// A client that answers pings keeps its connection past PongWait, to the
// end of its stream (close 1000); one that reads but answers no ping is
// disconnected once PongWait passes without a pong: the server closes the
// TCP connection without a close frame, which the client sees as close 1006,
// not as the end of its stream, an overflow (1013) or a shutdown (1001).
func TestWSPingPong(t *testing.T) {
	const pongWait = 500 * time.Millisecond
	base := servertest.Start(t, server.Options{WS: ws.Options{PingInterval: 20 * time.Millisecond, PongWait: pongWait}}).URL

	// 30 messages at 40/s take 750 ms, longer than PongWait.
	live, _, err := websocket.DefaultDialer.Dial(wsURL(base, "scenario=ws-message&codec=encoding/json&rate=40&count=30&stream=pp1"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	livePings := 0
	live.SetPingHandler(func(data string) error {
		livePings++
		return live.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
	})
	n := 0
	for {
		_, _, err := live.ReadMessage()
		if err != nil {
			if !websocket.IsCloseError(err, websocket.CloseNormalClosure) || n != 30 {
				t.Fatalf("answering client: %v after %d messages, want close 1000 after 30", err, n)
			}
			break
		}
		n++
	}
	if livePings == 0 {
		t.Fatal("answering client: no ping arrived")
	}

	silent, _, err := websocket.DefaultDialer.Dial(wsURL(base, "scenario=ws-message&codec=encoding/json&rate=5&stream=pp2"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	silentPings := 0
	silent.SetPingHandler(func(string) error { silentPings++; return nil }) // no pong
	// The deadline only bounds a broken server; the disconnect comes after
	// PongWait.
	_ = silent.SetReadDeadline(time.Now().Add(20 * pongWait))
	for {
		_, _, err := silent.ReadMessage()
		if err == nil {
			continue
		}
		if !websocket.IsCloseError(err, websocket.CloseAbnormalClosure) {
			t.Fatalf("silent client: %v, want the connection closed without a close frame (1006) after PongWait", err)
		}
		break
	}
	if silentPings == 0 {
		t.Fatal("silent client: disconnected before any ping arrived")
	}
}
