package httpapi

import (
	"encoding/json"
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
	hang := codec.Funcs{
		Meta:    codec.Info{ID: "hang", Format: "JSON", Kind: codec.Reflect},
		Marshal: json.Marshal,
		Unmarshal: func(data []byte, v any) error {
			switch string(data) {
			case "hang":
				<-release
			case "panic":
				panic("decoder bug")
			}
			return json.Unmarshal(data, v)
		},
	}
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
