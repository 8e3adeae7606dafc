package server_test

import (
	"bufio"
	"net"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/internal/servertest"
)

// idleSubscribers opens n SSE subscriptions to one stream whose start is
// an hour ahead (so none gets an event), over raw connections that hold
// nothing but the socket, asking for gzip when gz is set, and returns
// them once each has its response headers.
func idleSubscribers(t *testing.T, base string, n int, gz bool) []net.Conn {
	t.Helper()
	start := strconv.FormatInt(time.Now().Add(time.Hour).UnixNano(), 10)
	host := strings.TrimPrefix(base, "http://")
	conns := make([]net.Conn, n)
	for i := range conns {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		req := "GET /sse?scenario=sse-event&codec=encoding/json&rate=10&stream=idle&start=" + start + " HTTP/1.1\r\nHost: " + host + "\r\n"
		if gz {
			req += "Accept-Encoding: gzip\r\n"
		}
		if _, err := c.Write([]byte(req + "\r\n")); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReaderSize(c, 512), nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK || gz != (resp.Header.Get("Content-Encoding") == "gzip") {
			t.Fatalf("idle subscriber %d: %s, Content-Encoding %q", i, resp.Status, resp.Header.Get("Content-Encoding"))
		}
		conns[i] = c
	}
	return conns
}

// heapInUse returns the heap in use after two collections (a sync.Pool's
// idle objects survive one).
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// TestIdleSubscriberMemory measures what an idle SSE subscription costs
// the server's heap (the connection, its goroutine's buffers, the
// subscription, and for gzip its CRC-32 and size: the heap with them open
// less the heap once they have closed) and checks that a gzip one costs
// within twice an uncompressed one (issue 44: 443 KB against 43 KB). The
// count is SERBENCH_IDLE_SUBSCRIBERS (default 300); the figures are
// logged (go test -v).
func TestIdleSubscriberMemory(t *testing.T) {
	n := 300
	if s := os.Getenv("SERBENCH_IDLE_SUBSCRIBERS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			t.Fatalf("SERBENCH_IDLE_SUBSCRIBERS=%q: want a count", s)
		}
	}
	per := map[bool]float64{}
	for _, gz := range []bool{false, true} {
		o := hostileOptions()
		o.SSE.Gzip = gz
		o.Hub.MaxClientSubscribers, o.Hub.MaxSubscribers = n+1, n+1
		o.ReadTimeout, o.IdleTimeout = time.Minute, time.Minute
		ts := servertest.Start(t, o)
		conns := idleSubscribers(t, ts.URL, n, gz)
		measure := func() float64 {
			with := heapInUse()
			for _, c := range conns {
				c.Close()
			}
			deadline := time.Now().Add(guardTimeout)
			for m, _ := ts.Server.Hub.Subscribers(); m > 0; m, _ = ts.Server.Hub.Subscribers() {
				if time.Now().After(deadline) {
					t.Fatalf("%d subscribers left after their connections closed", m)
				}
				time.Sleep(10 * time.Millisecond)
			}
			return (float64(with) - float64(heapInUse())) / float64(n)
		}
		per[gz] = measure()
		t.Logf("gzip=%v: %d idle subscribers, %.0f bytes of heap each", gz, n, per[gz])
		if err := ts.Stop(); err != nil {
			t.Fatal(err)
		}
	}
	if per[true] > 2*per[false] {
		t.Errorf("an idle gzip subscriber costs %.0f bytes, an uncompressed one %.0f: want within 2x", per[true], per[false])
	}
}
