package sse

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"

	kflate "github.com/klauspost/compress/flate"
)

// TestGzipStateless checks that events deflated on their own (every other
// one with the event before it as its dictionary) and sent after a
// response's header make one gzip member that the standard library's
// reader decodes, trailer included; and that a reader given only
// the bytes sent so far (as a browser's, reading a response still open)
// decodes every event sent so far, whole.
func TestGzipStateless(t *testing.T) {
	var out bytes.Buffer
	var g gzipConn
	var want strings.Builder
	var prev []byte
	for i := range 60 {
		ev := "id: " + strings.Repeat("x", i*37%500) + strings.Repeat("data: event ", 1+i%7) + "\n\n"
		if i == 59 {
			ev = strings.Repeat("data: a long event with a window's worth of text\n", 2000) + "\n" // several blocks
		}
		var dict []byte
		if i%2 == 1 {
			dict = prev
		}
		z, err := Deflate([]byte(ev), dict)
		if err != nil {
			t.Fatal(err)
		}
		prev = []byte(ev)
		out.Write(g.header())
		g.count([]byte(ev))
		out.Write(z)
		want.WriteString(ev)

		zr := flate.NewReader(bytes.NewReader(out.Bytes()[len(gzipHeader):]))
		got, err := io.ReadAll(zr)
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("event %d: the stream so far read with %v, want unexpected EOF (no final block yet)", i, err)
		}
		if string(got) != want.String() {
			t.Fatalf("event %d: the stream so far decodes to %d bytes, want the %d sent", i, len(got), want.Len())
		}
	}
	out.Write(g.appendEnd(nil))
	r, err := gzip.NewReader(&out)
	if err != nil {
		t.Fatal(err)
	}
	r.Multistream(false)
	got, err := io.ReadAll(r) // checks the CRC-32 and size at the end
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want.String() {
		t.Errorf("decoded %d bytes, want %d", len(got), want.Len())
	}
	if out.Len() != 0 {
		t.Errorf("%d bytes after the gzip member", out.Len())
	}
}

// A response that sends nothing still ends with a valid, empty member.
func TestGzipEmpty(t *testing.T) {
	var g gzipConn
	r, err := gzip.NewReader(bytes.NewReader(g.appendEnd(nil)))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(r); err != nil || len(got) != 0 {
		t.Fatalf("read %q, %v; want nothing, no error", got, err)
	}
}

// BenchmarkDeflateEvent compares ways of compressing one SSE event on its
// own: StatelessDeflate (what the handler does), without a dictionary and
// with the previous event as one, and a pooled default-level writer reset
// and sync-flushed per event; it reports compressed bytes per event, and
// the CRC-32 a response adds per event.
func BenchmarkDeflateEvent(b *testing.B) {
	ev := []byte("id: 12345\nevent: sse-event\nt: 1764390000000000000\ndata: {\"id\":12345,\"type\":\"price\",\"symbol\":\"ACME\",\"price\":101.25,\"volume\":1200,\"ts\":1764390000000}\n\n")
	next := bytes.Replace(ev, []byte("12345"), []byte("12346"), -1)
	for _, dict := range []struct {
		name string
		dict []byte
	}{{"none", nil}, {"previous-event", ev}} {
		b.Run("how=stateless/dict="+dict.name, func(b *testing.B) {
			var n int
			for b.Loop() {
				z, err := Deflate(next, dict.dict)
				if err != nil {
					b.Fatal(err)
				}
				n = len(z)
			}
			b.ReportMetric(float64(n), "B/event")
		})
	}
	b.Run("how=reset-flush", func(b *testing.B) {
		var buf bytes.Buffer
		fw, err := kflate.NewWriter(&buf, kflate.DefaultCompression)
		if err != nil {
			b.Fatal(err)
		}
		var n int
		for b.Loop() {
			buf.Reset()
			fw.Reset(&buf)
			if _, err := fw.Write(ev); err != nil {
				b.Fatal(err)
			}
			if err := fw.Flush(); err != nil {
				b.Fatal(err)
			}
			n = buf.Len()
		}
		b.ReportMetric(float64(n), "B/event")
	})
	b.Run("how=crc32", func(b *testing.B) {
		var c gzipConn
		for b.Loop() {
			c.count(ev)
		}
	})
}
