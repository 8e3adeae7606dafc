package server_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/serbench/serbench/transport/server"
	"github.com/serbench/serbench/transport/sse"
)

// The reproductions of issue 33's serve half, as they were reported. Each
// fails on the server before the hardening.

func get(t *testing.T, u string, hdr map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b := make([]byte, 512)
	n, _ := io.ReadFull(resp.Body, b)
	return resp.StatusCode, string(b[:n])
}

func TestReproTinyRate(t *testing.T) {
	base, _, _ := start(t, server.Options{})
	code, body := get(t, base+"/sse?scenario=sse-event&codec=encoding/json&rate=1e-10&stream=attack", nil)
	if code != http.StatusBadRequest || !strings.Contains(body, "rate") {
		t.Fatalf("rate=1e-10: status %d %q, want 400 naming rate", code, body)
	}
}

func TestReproStreamsRunAfterClientsLeave(t *testing.T) {
	base, srv, _ := start(t, server.Options{})
	for i := range 50 {
		resp, err := http.Get(fmt.Sprintf("%s/sse?scenario=sse-event&codec=encoding/json&rate=100&stream=gone%d", base, i))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sse.NewReader(resp.Body).Next(); err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	time.Sleep(200 * time.Millisecond) // the server notices the closed connections
	before := srv.Hub.Stats("").Codecs[0].Published
	time.Sleep(500 * time.Millisecond)
	after := srv.Hub.Stats("").Codecs[0].Published
	if after-before > 50 {
		t.Fatalf("%d messages encoded for streams without clients", after-before)
	}
}

func TestReproForeignOrigin(t *testing.T) {
	base, _, _ := start(t, server.Options{})
	for _, p := range []string{"/sse?scenario=sse-event&codec=encoding/json&count=1", "/api/http/sse-event", "/stats"} {
		code, _ := get(t, base+p, map[string]string{"Origin": "http://evil.example"})
		if code != http.StatusForbidden {
			t.Errorf("%s with a foreign Origin: status %d, want 403", p, code)
		}
	}
	code, _ := get(t, base+"/sse?scenario=sse-event&codec=encoding/json&count=1", map[string]string{"Host": "evil.example"})
	if code != http.StatusForbidden {
		t.Errorf("/sse with Host evil.example: status %d, want 403", code)
	}
}

func TestReproDNSRebindingWS(t *testing.T) {
	base, _, _ := start(t, server.Options{})
	port := base[strings.LastIndexByte(base, ':')+1:]
	d := websocket.Dialer{NetDial: func(network, _ string) (net.Conn, error) {
		return net.Dial(network, strings.TrimPrefix(base, "http://"))
	}}
	h := http.Header{"Origin": {"http://rebind.example:" + port}}
	c, _, err := d.Dial("ws://rebind.example:"+port+"/ws?scenario=ws-message&codec=encoding/json&count=1", h)
	if err == nil {
		c.Close()
		t.Fatal("a DNS-rebound page (Origin == Host == rebind.example) upgraded")
	}
}

func TestReproMsgpackBodyDecoded(t *testing.T) {
	base, _, _ := start(t, server.Options{})
	// A valid body: the API must refuse the codec before decoding anything.
	req, _ := http.NewRequest(http.MethodPost, base+"/api/http/ws-message?codec=msgpack", strings.NewReader("\x80"))
	req.Header.Set("Content-Type", "text/plain")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Fatalf("POST with codec=msgpack: status %d, want 415 (msgpack crashes on hostile bodies)", resp.StatusCode)
	}
}

func TestReproStatsGetResets(t *testing.T) {
	base, _, _ := start(t, server.Options{})
	code, body := get(t, base+"/stats?reset_peak=1", nil)
	if code == http.StatusOK {
		t.Fatalf("GET /stats?reset_peak=1: status %d %.80q, want a refusal", code, body)
	}
}

// openAfter reports whether conn is still open after d.
func openAfter(conn net.Conn, d time.Duration) bool {
	_ = conn.SetReadDeadline(time.Now().Add(d))
	_, err := bufio.NewReader(conn).ReadString(0)
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

func TestReproSlowBodyAndIdleKeepAlive(t *testing.T) {
	base, _, _ := start(t, server.Options{})
	addr := strings.TrimPrefix(base, "http://")
	slow, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	fmt.Fprintf(slow, "POST /api/http/ws-message HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{", addr)
	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	fmt.Fprintf(idle, "GET /api/stats HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	time.Sleep(100 * time.Millisecond)
	// Drain the answer so that the connection is idle.
	_ = idle.SetReadDeadline(time.Now().Add(time.Second))
	_, _ = idle.Read(make([]byte, 1<<16))
	if openAfter(slow, 12*time.Second) {
		t.Error("a POST body that never arrives holds its connection open after 12s")
	}
	if openAfter(idle, time.Second) {
		t.Error("an idle keep-alive connection is open after 13s")
	}
}
