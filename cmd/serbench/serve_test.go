package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/serbench/serbench/transport/server"
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

// startServe runs serbench serve with args on a free loopback port and
// returns its base URL; stop cancels it and returns its error.
func startServe(t *testing.T, args ...string) (base string, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan string, 1)
	out := &serveLine{ch: first}
	done := make(chan error, 1)
	go func() { done <- run(ctx, out, io.Discard, append([]string{"serve", "-addr", "127.0.0.1:0"}, args...)) }()
	var line string
	select {
	case line = <-first:
	case err := <-done:
		cancel()
		t.Fatalf("serve returned early: %v", err)
	}
	// "serbench serve: listening on http://127.0.0.1:PORT/ (...)"
	f := strings.Fields(line)
	if len(f) < 5 || !strings.HasPrefix(f[4], "http://127.0.0.1:") {
		cancel()
		t.Fatalf("unexpected first line %q", line)
	}
	return strings.TrimSuffix(f[4], "/"), func() error {
		cancel()
		return <-done
	}
}

func TestServeSSEHeaders(t *testing.T) {
	base, stop := startServe(t)
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
	if err := stop(); err != nil {
		t.Fatalf("serve after cancel: %v", err)
	}
}

// The limits' flags: a value out of range is a usage error naming it, and
// -allow-host admits a name the Host check refuses otherwise.
func TestServeLimitFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-max-total-rate", "0"}, "-max-total-rate"},
		{[]string{"-max-total-rate", "1e12"}, "MaxTotalRate 1e+12"},
		{[]string{"-read-timeout", "-1s"}, "-read-timeout"},
		{[]string{"-api-decode", "nope"}, `"nope"`},
		{[]string{"-api-decode-memory", "10"}, "-api-decode-memory 10 MiB (range is [64, 1048576])"},
		{[]string{"-api-max-decodes", "4"}, "-api-decode-workers, -api-max-decodes"},
	} {
		err := run(context.Background(), io.Discard, io.Discard, append([]string{"serve", "-addr", "127.0.0.1:0"}, tc.args...))
		if exitCode(err) != 2 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("serve %v: %v (exit %d), want a usage error naming %s", tc.args, err, exitCode(err), tc.want)
		}
	}

	// A connection cap above what the hard open file limit holds.
	if _, hard, err := server.OpenFileLimits(); err == nil && hard < 1<<24 {
		err := run(context.Background(), io.Discard, io.Discard, []string{"serve", "-addr", "127.0.0.1:0", "-max-conns", "16777216"})
		if exitCode(err) != 2 || !strings.Contains(err.Error(), "-max-conns 16777216") || !strings.Contains(err.Error(), "hard open file limit") {
			t.Errorf("serve -max-conns 16777216: %v (exit %d), want a usage error naming the flag and the limit", err, exitCode(err))
		}
	}

	base, stop := startServe(t, "-allow-host", "bench.example")
	for host, want := range map[string]int{"bench.example": 200, "other.example": 403} {
		req, _ := http.NewRequest(http.MethodGet, base+"/stats", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: status %d, want %d", host, resp.StatusCode, want)
		}
	}
	if err := stop(); err != nil {
		t.Fatalf("serve after cancel: %v", err)
	}
}

// serve decodes /api bodies in worker processes by default: a POST is
// answered with its value, decoded in a worker (this test binary started
// again in httpapi.WorkerRole), and -api-decode-workers 0 decodes in the
// process.
func TestServeDecodeWorkers(t *testing.T) {
	body := `{"uid":"u7","content":"hi","timestamp":5}`
	for _, args := range [][]string{nil, {"-api-decode-workers", "0"}} {
		base, stop := startServe(t, args...)
		resp, err := http.Post(base+"/api/http/ws-message", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(got), `"content":"hi"`) {
			t.Errorf("serve %v: POST %s: %s %q, want 200 with the value", args, body, resp.Status, got)
		}
		if err := stop(); err != nil {
			t.Fatalf("serve %v: %v", args, err)
		}
	}
}
