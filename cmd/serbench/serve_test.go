package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// serveLine is an io.Writer that hands the first line written to it to a channel.
type serveLine struct {
	ch  chan string
	buf strings.Builder
}

func (s *serveLine) Write(p []byte) (int, error) {
	s.buf.Write(p)
	if i := strings.IndexByte(s.buf.String(), '\n'); i >= 0 && s.ch != nil {
		s.ch <- s.buf.String()[:i]
		s.ch = nil
	}
	return len(p), nil
}

func TestServeSSEHeaders(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan string, 1)
	out := &serveLine{ch: first}
	done := make(chan error, 1)
	go func() { done <- run(ctx, out, io.Discard, []string{"serve", "-addr", "127.0.0.1:0"}) }()
	var line string
	select {
	case line = <-first:
	case err := <-done:
		t.Fatalf("serve returned early: %v", err)
	}
	// "serbench serve: listening on http://127.0.0.1:PORT/ (...)"
	f := strings.Fields(line)
	if len(f) < 5 || !strings.HasPrefix(f[4], "http://127.0.0.1:") {
		t.Fatalf("unexpected first line %q", line)
	}
	base := strings.TrimSuffix(f[4], "/")
	resp, err := http.Get(base + "/sse?scenario=sse-event&codec=encoding/json&rate=100&count=2")
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	var ids []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
			ids = append(ids, v)
		}
	}
	resp.Body.Close()
	if strings.Join(ids, ",") != "0,1" {
		t.Errorf("ids %v, want 0,1", ids)
	}
	resp, err = http.Get(base + "/sse?scenario=sse-event&codec=nope")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("unknown codec: status %d, want 400", resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve after cancel: %v", err)
	}
}
