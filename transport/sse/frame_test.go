package sse_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/sse"
)

func TestEventRoundTrip(t *testing.T) {
	at := time.Unix(1700000000, 123456789)
	for _, tc := range []struct {
		name    string
		payload string
		binary  bool
	}{
		{"json", `{"a":1,"b":"x"}`, false},
		{"multiline", "line1\nline2\r\nline3", false},
		{"empty", "", false},
		{"binary", "\x00\x01\xff\n\r:data", true},
		{"long", strings.Repeat("0123456789", 5000), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &transport.Message{Seq: 42, Intended: at, Payload: []byte(tc.payload)}
			var b []byte
			b = append(b, ": comment\nretry: 1000\n\n"...)
			b = sse.AppendEvent(b, "sse-event", m, tc.binary)
			b = sse.AppendEnd(b, 43)
			rd := sse.NewReader(bytes.NewReader(b))
			ev, err := rd.Next()
			if err != nil {
				t.Fatal(err)
			}
			if string(ev.ID) != "42" || string(ev.Type) != "sse-event" || !ev.HasT || ev.T != at.UnixNano() {
				t.Fatalf("fields: id %q type %q t %d", ev.ID, ev.Type, ev.T)
			}
			want := strings.ReplaceAll(tc.payload, "\r\n", "\n")
			got := string(ev.Data)
			if tc.binary {
				want = "AAH/Cg06ZGF0YQ=="
			}
			if got != want {
				t.Fatalf("data %q, want %q", got, want)
			}
			ev, err = rd.Next()
			if err != nil || string(ev.Type) != sse.EndEvent || string(ev.Data) != "43" {
				t.Fatalf("end event: %+v, %v", ev, err)
			}
			if _, err := rd.Next(); err != io.EOF {
				t.Fatalf("after end: %v", err)
			}
		})
	}
}

func TestReaderLimit(t *testing.T) {
	rd := sse.NewReader(strings.NewReader("data: " + strings.Repeat("x", 100) + "\n\n"))
	rd.MaxEventBytes = 50
	if _, err := rd.Next(); !errors.Is(err, sse.ErrEventTooLarge) {
		t.Fatalf("err = %v, want ErrEventTooLarge", err)
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte("id: 1\nevent: x\nt: 5\ndata: a\ndata: b\n\n"))
	f.Add([]byte(":c\r\nretry: 3\r\n\r\ndata\n\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		rd := sse.NewReader(bytes.NewReader(b))
		rd.MaxEventBytes = 1 << 12
		for range 1000 {
			if _, err := rd.Next(); err != nil {
				return
			}
		}
	})
}

func TestPreambleEvent(t *testing.T) {
	p := []byte("\x0f\xff\x81gob descriptors\n")
	b := sse.AppendPreamble(nil, p, true)
	b = sse.AppendEvent(b, "ws-message", &transport.Message{Seq: 0, Intended: time.Unix(1, 0), Payload: []byte("x")}, true)
	rd := sse.NewReader(bytes.NewReader(b))
	ev, err := rd.Next()
	if err != nil {
		t.Fatal(err)
	}
	if string(ev.Type) != sse.PreambleEvent || len(ev.ID) != 0 {
		t.Fatalf("first event: type %q id %q, want %q without id", ev.Type, ev.ID, sse.PreambleEvent)
	}
	if got := string(ev.Data); got != base64.StdEncoding.EncodeToString(p) {
		t.Errorf("data %q", got)
	}
	if ev, err = rd.Next(); err != nil || string(ev.ID) != "0" {
		t.Fatalf("second event: %+v, %v", ev, err)
	}
}
