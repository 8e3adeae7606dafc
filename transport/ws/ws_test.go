package ws_test

import (
	"errors"
	"testing"
	"time"

	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/ws"
)

func TestHeaderRoundTrip(t *testing.T) {
	m := &transport.Message{Seq: 0xfedcba9876543210, Intended: time.Unix(0, -5), Payload: []byte("payload")}
	b := ws.AppendHeader(nil, m)
	if len(b) != ws.HeaderLen {
		t.Fatalf("header is %d bytes, want %d", len(b), ws.HeaderLen)
	}
	seq, at, p, err := ws.ParseHeader(append(b, m.Payload...))
	if err != nil || seq != m.Seq || at != -5 || string(p) != "payload" {
		t.Fatalf("got %x %d %q %v", seq, at, p, err)
	}
	for _, bad := range []string{"", "short", "0123456789abcdeX 0123456789abcdef\n", "0123456789abcdef-0123456789abcdef\n"} {
		if _, _, _, err := ws.ParseHeader([]byte(bad)); !errors.Is(err, ws.ErrBadHeader) {
			t.Errorf("%q: err = %v", bad, err)
		}
	}
}

func TestSubprotocol(t *testing.T) {
	if got := ws.Subprotocol("encoding/json"); got != "serbench.encoding.json" {
		t.Fatal(got)
	}
}

func FuzzParseHeader(f *testing.F) {
	f.Add([]byte("0000000000000001 0000000000000002\nxyz"))
	f.Fuzz(func(t *testing.T, b []byte) {
		seq, at, p, err := ws.ParseHeader(b)
		if err != nil {
			return
		}
		m := &transport.Message{Seq: seq, Intended: time.Unix(0, at)}
		if got := string(ws.AppendHeader(nil, m)) + string(p); got != string(b) {
			t.Fatalf("round trip %q -> %q", b, got)
		}
	})
}
