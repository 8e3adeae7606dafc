package httpapi

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
)

// A decode that does not return within DecodeTimeout is answered 503 and
// keeps its slot until it returns, so a stuck decoder holds at most
// MaxDecodes slots; a decoder's panic is a 400, not the end of the process.
func TestDecodeTimeLimit(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	hang := jsonWith("hang", map[string]func(){
		"hang":  func() { <-release },
		"panic": func() { panic("decoder bug") },
	})
	reg, err := codec.NewRegistry(hang)
	if err != nil {
		t.Fatal(err)
	}
	a, srv := newServer(t, Options{
		Resolver:      transport.Resolver{Codecs: reg, Scenarios: scenario.Seeds()},
		DecodeCodecs:  []string{"hang"},
		DecodeTimeout: 50 * time.Millisecond,
		MaxDecodes:    1,
	})
	u := srv.URL + "/api/http/ws-message?codec=hang"
	code, _, body := do(t, "POST", u, nil, []byte("hang"))
	if code != 503 || !strings.Contains(string(body), "took more than 50ms") {
		t.Fatalf("hanging decode: %d %q, want 503 naming the limit", code, body)
	}
	// The one slot is still held by the hanging decode: this client's
	// share is taken (an answer at once, naming the flag), and so is the
	// slot for another client (after the wait).
	code, _, body = do(t, "POST", u, nil, []byte("{}"))
	if code != 503 || !strings.Contains(string(body), "client 127.0.0.1 has 1 decodes running") || !strings.Contains(string(body), "-api-max-client-decodes") {
		t.Fatalf("with the client's share taken: %d %q, want 503 naming the share and its flag", code, body)
	}
	e, err := a.resolve(httptest.NewRequest("POST", u, nil), "ws-message")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.decodeInto("192.0.2.1", []byte("{}"), e.newValue()); err == nil || !strings.Contains(err.Error(), "no decode slot free") || !strings.Contains(err.Error(), "-api-max-decodes") {
		t.Fatalf("another client with the slot taken: %v, want no slot naming -api-max-decodes", err)
	}
	release <- struct{}{} // the decode returns and frees its slot
	code, _, body = do(t, "POST", u, nil, []byte("panic"))
	for code == 503 && strings.Contains(string(body), "decodes running") { // the slot is freed just after
		code, _, body = do(t, "POST", u, nil, []byte("panic"))
	}
	if code != 400 || !strings.Contains(string(body), "panic: decoder bug") {
		t.Fatalf("panicking decode: %d %q, want 400 naming the panic", code, body)
	}
}

// A body that declares more than MaxBodyBytes is refused before it is
// read: the client sends its headers alone and gets the 413 (a server
// that read the body would wait for it for ever), naming the limit and
// its flag.
func TestDeclaredBodyTooLarge(t *testing.T) {
	_, srv := newServer(t, Options{MaxBodyBytes: 1000})
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/http/ws-message HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", int64(1)<<40)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 413 || !strings.Contains(string(body), "1099511627776 bytes, more than MaxBodyBytes 1000 (serve -api-max-body)") {
		t.Fatalf("a declared 1 TiB body: %s %q, want 413 naming the limit and its flag", resp.Status, body)
	}
}
