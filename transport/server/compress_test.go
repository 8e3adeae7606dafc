package server_test

import (
	"bytes"
	stdgzip "compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/klauspost/compress/gzip"

	"github.com/serbench/serbench/internal/servertest"
	"github.com/serbench/serbench/transport/server"
	"github.com/serbench/serbench/transport/sse"
	"github.com/serbench/serbench/transport/ws"
)

// SSE gzip and WebSocket permessage-deflate happen only when the server
// has them on (off by default) and the client asks.
func TestCompression(t *testing.T) {
	var on server.Options
	on.SSE.Gzip, on.WS.Compress = true, true
	baseOn := servertest.Start(t, on).URL
	baseOff := servertest.Start(t, server.Options{}).URL
	const q = "?scenario=sse-event&codec=encoding/json&rate=500&count=5"
	for _, tc := range []struct {
		name, base string
		ask, want  bool
	}{
		{"on, asked", baseOn, true, true},
		{"on, not asked", baseOn, false, false},
		{"off, asked", baseOff, true, false},
	} {
		t.Run("sse "+tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", tc.base+"/sse"+q+"&stream="+url.QueryEscape(t.Name()), nil)
			if tc.ask {
				req.Header.Set("Accept-Encoding", "gzip")
			}
			// DisableCompression: the response is read as it came.
			resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body io.Reader = resp.Body
			if got := resp.Header.Get("Content-Encoding") == "gzip"; got != tc.want {
				t.Fatalf("Content-Encoding %q, want gzip: %v", resp.Header.Get("Content-Encoding"), tc.want)
			}
			if tc.want {
				zr, err := gzip.NewReader(resp.Body)
				if err != nil {
					t.Fatal(err)
				}
				body = zr
			}
			rd := sse.NewReader(body)
			for i := 0; ; i++ {
				ev, err := rd.Next()
				if err != nil {
					t.Fatalf("event %d: %v", i, err)
				}
				if string(ev.Type) == sse.EndEvent {
					if i != 5 {
						t.Fatalf("end after %d events, want 5", i)
					}
					break
				}
				if string(ev.ID) != string(rune('0'+i)) || !strings.HasPrefix(string(ev.Data), `{"id":`) {
					t.Fatalf("event %d: id %q data %.40q", i, ev.ID, ev.Data)
				}
			}
			if _, err := rd.Next(); err != io.EOF {
				t.Fatalf("after end: %v, want EOF (gzip trailer checked)", err)
			}
		})
		t.Run("ws "+tc.name, func(t *testing.T) {
			d := websocket.Dialer{EnableCompression: tc.ask}
			conn, resp, err := d.Dial("ws"+strings.TrimPrefix(tc.base, "http")+"/ws"+q+"&stream="+url.QueryEscape(t.Name()), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			ext := resp.Header.Get("Sec-WebSocket-Extensions")
			if got := strings.Contains(ext, "permessage-deflate"); got != tc.want {
				t.Fatalf("Sec-WebSocket-Extensions %q, want permessage-deflate: %v", ext, tc.want)
			}
			for i := range 5 {
				_, msg, err := conn.ReadMessage()
				if err != nil {
					t.Fatal(err)
				}
				seq, _, payload, err := ws.ParseHeader(msg)
				if err != nil || seq != uint64(i) || !strings.HasPrefix(string(payload), `{"id":`) {
					t.Fatalf("message %d: seq %d, %v, %.40q", i, seq, err, payload)
				}
			}
		})
	}
}

// TestGzipFanOut opens three gzip subscriptions to one stream (a start=
// 1.5 s ahead, so all three join before its first event; rate 8, so the events
// come with idle gaps) and checks that each response, read raw, decodes
// with the standard library's compress/gzip to every event and the end,
// trailer included; that the three are byte for byte the same (the same
// deflate blocks after the same header); and that each event was
// compressed once for the three.
// A fourth joins after the third event: it decodes too, and its first
// event is the one compressed a second time.
func TestGzipFanOut(t *testing.T) {
	var o server.Options
	o.SSE.Gzip = true
	ts := servertest.Start(t, o)
	const n, count = 3, 6
	at := time.Now().Add(1500 * time.Millisecond)
	start := strconv.FormatInt(at.UnixNano(), 10)
	url := ts.URL + "/sse?scenario=sse-event&codec=encoding/json&rate=8&count=" + strconv.Itoa(count) + "&stream=fan&start=" + start
	before := ts.Server.SSE.Deflated()
	bodies := make([][]byte, n+1) // and one that joins after the third event
	errs := make(chan error, n+1)
	for i := range bodies {
		go func() {
			if i == n {
				time.Sleep(time.Until(at.Add(300 * time.Millisecond)))
			}
			req, _ := http.NewRequest("GET", url, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			if resp.Header.Get("Content-Encoding") != "gzip" {
				errs <- fmt.Errorf("connection %d: Content-Encoding %q", i, resp.Header.Get("Content-Encoding"))
				return
			}
			bodies[i], err = io.ReadAll(resp.Body)
			errs <- err
		}()
	}
	for range n + 1 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	late := readGzipEvents(t, bodies[n])
	t.Logf("the late connection got events %q", late)
	for k, id := range late {
		if id != strconv.Itoa(count-len(late)+k) {
			t.Fatalf("the late connection's events %q: want the last %d of the stream's", late, len(late))
		}
	}
	for i, body := range bodies[:n] {
		zr, err := stdgzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		rd := sse.NewReader(zr)
		for k := 0; ; k++ {
			ev, err := rd.Next()
			if err != nil {
				t.Fatalf("connection %d, event %d: %v", i, k, err)
			}
			if string(ev.Type) == sse.EndEvent {
				if k != count {
					t.Fatalf("connection %d: end after %d events, want %d", i, k, count)
				}
				break
			}
			if string(ev.ID) != strconv.Itoa(k) || !strings.HasPrefix(string(ev.Data), `{"id":`) {
				t.Fatalf("connection %d, event %d: id %q data %.40q", i, k, ev.ID, ev.Data)
			}
		}
		if _, err := rd.Next(); err != io.EOF {
			t.Fatalf("connection %d after end: %v, want EOF (gzip trailer checked)", i, err)
		}
		if !bytes.Equal(body, bodies[0]) {
			t.Errorf("connection %d sent %d bytes unlike connection 0's %d", i, len(body), len(bodies[0]))
		}
	}
	// The late connection's first event was compressed without the one
	// before (a second time), the rest as for the others.
	want := int64(count)
	if len(late) > 0 {
		want++
	}
	if got := ts.Server.SSE.Deflated() - before; got != want {
		t.Errorf("%d events compressed for %d connections of %d events and a late one of %d, want %d", got, n, count, len(late), want)
	}
}

// readGzipEvents decodes a gzip SSE response body with the standard
// library's reader (trailer checked) and returns its events' ids, up to
// the end event.
func readGzipEvents(t *testing.T, body []byte) []string {
	t.Helper()
	zr, err := stdgzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	rd := sse.NewReader(zr)
	var ids []string
	for {
		ev, err := rd.Next()
		if err != nil {
			t.Fatalf("after %d events: %v", len(ids), err)
		}
		if string(ev.Type) == sse.EndEvent {
			break
		}
		ids = append(ids, string(ev.ID))
	}
	if _, err := rd.Next(); err != io.EOF {
		t.Fatalf("after end: %v, want EOF (gzip trailer checked)", err)
	}
	return ids
}
