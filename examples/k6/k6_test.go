// Package k6 holds a k6 script for serbench's WebSocket streams
// (serbench-ws.js) and the test that runs it briefly when k6 is installed.
package k6

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/serbench/serbench/internal/servertest"
	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/server"
	"github.com/serbench/serbench/transport/ws"
)

// k6Path returns k6 on PATH or skips: .ci/run does not install k6 (go
// install go.k6.io/k6@latest takes minutes), so these tests run where the
// machine already has it.
func k6Path(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("k6")
	if err != nil {
		t.Skip("k6 not on PATH (go install go.k6.io/k6@latest)")
	}
	return p
}

// summary is the part of `k6 run --summary-export` the test reads.
type summary struct {
	Metrics map[string]map[string]any `json:"metrics"`
}

func (s summary) count(t *testing.T, metric string) int {
	t.Helper()
	m, ok := s.Metrics[metric]
	if !ok {
		t.Fatalf("summary has no metric %s", metric)
	}
	c, ok := m["count"].(float64)
	if !ok {
		t.Fatalf("%s: no count in %v", metric, m)
	}
	return int(c)
}

// runK6 runs serbench-ws.js against base (http://host:port) with env
// settings and returns the exported summary, k6's output and its exit error.
func runK6(t *testing.T, k6, base string, env map[string]string) (summary, string, error) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "summary.json")
	args := []string{"run", "--quiet", "--no-usage-report", "--summary-export", out,
		"-e", "BASE=ws" + strings.TrimPrefix(base, "http")}
	for k, v := range env {
		args = append(args, "-e", k+"="+v)
	}
	args = append(args, "serbench-ws.js")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, k6, args...)
	cmd.Env = append(os.Environ(), "K6_NO_USAGE_REPORT=true")
	logs, runErr := cmd.CombinedOutput()
	var s summary
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("k6 wrote no summary (%v): %v\n%s", runErr, err, logs)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("summary: %v", err)
	}
	return s, string(logs), runErr
}

// The script receives every message of a text (JSON) and a binary
// (msgpack) stream in order, and its thresholds pass.
func TestScript(t *testing.T) {
	k6 := k6Path(t)
	base := servertest.Start(t, server.Options{}).URL
	const vus, count = 2, 10
	for _, codec := range []string{"encoding/json", "msgpack"} {
		t.Run(strings.ReplaceAll(codec, "/", "_"), func(t *testing.T) {
			s, logs, err := runK6(t, k6, base, map[string]string{
				"CODEC": codec, "VUS": strconv.Itoa(vus), "COUNT": strconv.Itoa(count), "RATE": "100"})
			if err != nil {
				t.Fatalf("k6: %v\n%s", err, logs)
			}
			if got := s.count(t, "serbench_messages"); got != vus*count {
				t.Errorf("serbench_messages %d, want %d", got, vus*count)
			}
			for _, m := range []string{"serbench_lost", "serbench_out_of_order", "serbench_bad_header", "serbench_bad_end"} {
				if got := s.count(t, m); got != 0 {
					t.Errorf("%s %d, want 0", m, got)
				}
			}
			if _, ok := s.Metrics["serbench_latency"]["p(95)"]; !ok {
				t.Errorf("serbench_latency has no p(95): %v", s.Metrics["serbench_latency"])
			}
		})
	}
}

// Against a server that skips sequence number 2, the script counts one
// lost message and k6 fails the run on the threshold.
func TestScriptCountsGaps(t *testing.T) {
	k6 := k6Path(t)
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		// k6 drops a message that arrives before it has dispatched the open
		// event (see LEAD_MS in serbench-ws.js); the real server is told to
		// wait with start=, this one waits by itself.
		time.Sleep(time.Second)
		for _, seq := range []uint64{0, 1, 3, 4} {
			msg := ws.AppendHeader(nil, &transport.Message{Seq: seq, Intended: time.Now()})
			msg = append(msg, `{"uid":"u"}`...)
			if conn.WriteMessage(websocket.TextMessage, msg) != nil {
				return
			}
		}
		_ = conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ws.EndReason))
		_, _, _ = conn.ReadMessage() // the client's close frame
	}))
	defer srv.Close()
	s, logs, err := runK6(t, k6, srv.URL, map[string]string{"VUS": "1", "COUNT": "5"})
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("k6 passed a stream with a gap: %v\n%s", err, logs)
	}
	if got := s.count(t, "serbench_lost"); got != 1 {
		t.Errorf("serbench_lost %d, want 1", got)
	}
	if got := s.count(t, "serbench_messages"); got != 4 {
		t.Errorf("serbench_messages %d, want 4", got)
	}
}

// With FANOUT, each VU's sockets share one stream: the server encodes each
// message once per VU and delivers it FANOUT times, and every socket gets
// every message.
func TestScriptFanout(t *testing.T) {
	k6 := k6Path(t)
	base := servertest.Start(t, server.Options{}).URL
	const vus, fanout, count = 2, 3, 5
	s, logs, err := runK6(t, k6, base, map[string]string{
		"VUS": strconv.Itoa(vus), "FANOUT": strconv.Itoa(fanout), "COUNT": strconv.Itoa(count), "RATE": "50"})
	if err != nil {
		t.Fatalf("k6: %v\n%s", err, logs)
	}
	if got := s.count(t, "serbench_messages"); got != vus*fanout*count {
		t.Errorf("serbench_messages %d, want %d", got, vus*fanout*count)
	}
	if _, ok := s.Metrics["serbench_latency"]["p(99)"]; !ok {
		t.Errorf("serbench_latency has no p(99): %v", s.Metrics["serbench_latency"])
	}
	resp, err := http.Get(base + "/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st transport.ServerStats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	for _, c := range st.Codecs {
		if c.Codec == "encoding/json" && (c.Published != vus*count || c.Delivered != vus*fanout*count) {
			t.Errorf("server published %d and delivered %d, want %d and %d", c.Published, c.Delivered, vus*count, vus*fanout*count)
		}
	}
}
