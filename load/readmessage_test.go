package load

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
)

// readMessage reads each message whole into the one buffer it is given
// back, growing it for a larger message, and keeps the read limit.
func TestReadMessage(t *testing.T) {
	msgs := [][]byte{[]byte("short"), bytes.Repeat([]byte("x"), 10000), []byte("after a long one"), {}, bytes.Repeat([]byte("y"), 70)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		for _, m := range msgs {
			if c.WriteMessage(websocket.BinaryMessage, m) != nil {
				return
			}
		}
		_ = c.WriteMessage(websocket.TextMessage, make([]byte, 300)) // over the limit
	}))
	defer srv.Close()
	conn, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetReadLimit(200)
	var buf []byte
	for i, want := range msgs {
		if len(want) > 200 {
			conn.SetReadLimit(int64(len(want)))
		}
		typ, msg, err := readMessage(conn, buf[:0])
		if err != nil || typ != websocket.BinaryMessage || !bytes.Equal(msg, want) {
			t.Fatalf("message %d: type %d, %d bytes, %v; want binary, %d bytes", i, typ, len(msg), err, len(want))
		}
		if i > 0 && len(msg) <= cap(buf) && len(msg) > 0 && &msg[0] != &buf[:1][0] {
			t.Errorf("message %d: a new buffer although the last (cap %d) held it", i, cap(buf))
		}
		buf = msg
		conn.SetReadLimit(200)
	}
	if _, _, err := readMessage(conn, buf[:0]); err == nil || !strings.Contains(err.Error(), "read limit") {
		t.Errorf("a message over the read limit: %v, want websocket's read limit error", err)
	}
}
