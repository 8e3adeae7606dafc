package ws

import (
	"errors"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/serbench/serbench/transport"
)

func TestTagRoundTrip(t *testing.T) {
	m := &transport.Message{Seq: 7, Intended: time.Unix(0, 42), Payload: []byte("\x01\x02"), Codec: "msgpack", Binary: true}
	msg := append(AppendTag(AppendHeader(nil, m), m), m.Payload...)
	seq, at, rest, err := ParseHeader(msg)
	if err != nil || seq != 7 || at != 42 {
		t.Fatalf("ParseHeader = %d %d %v", seq, at, err)
	}
	tag, payload, err := ParseTag(rest)
	if err != nil || tag != "msgpack" || string(payload) != "\x01\x02" {
		t.Errorf("ParseTag = %q %q %v", tag, payload, err)
	}
	if messageFrameType(m, websocket.TextMessage) != websocket.BinaryMessage {
		t.Error("a binary codec's message is not a binary frame")
	}
	plain := &transport.Message{Seq: 1}
	if got := AppendTag(nil, plain); len(got) != 0 || messageFrameType(plain, websocket.TextMessage) != websocket.TextMessage {
		t.Errorf("a plain stream's message got tag %q", got)
	}
	for _, bad := range []string{"", "\npayload", "no newline at all"} {
		if _, _, err := ParseTag([]byte(bad)); !errors.Is(err, ErrBadHeader) {
			t.Errorf("ParseTag(%q) = %v, want ErrBadHeader", bad, err)
		}
	}
}
