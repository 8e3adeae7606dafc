package sse_test

import (
	"testing"
	"time"

	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/sse"
)

// On a switching stream the event type is the message's codec and base64
// follows that codec.
func TestAppendEventSwitch(t *testing.T) {
	m := &transport.Message{Seq: 3, Intended: time.Unix(0, 9), Payload: []byte{0xff}, Codec: "msgpack", Binary: true}
	got := string(sse.AppendEvent(nil, "sse-event", m, false))
	if want := "id: 3\nevent: msgpack\nt: 9\ndata: /w==\n\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
