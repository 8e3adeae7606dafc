package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/serbench/serbench/docs/schema"
)

func TestLoadRefusesNonLoopback(t *testing.T) {
	for _, u := range []string{"http://10.0.0.1:8080", "http://example.com"} {
		err := run(context.Background(), io.Discard, io.Discard, []string{"load", "-url", u, "-conns", "1", "-duration", "1s"})
		if err == nil || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("%s: err = %v, want a loopback refusal", u, err)
		}
	}
}

func TestLoadJSON(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), &out, io.Discard, []string{"load", "-transport", "ws", "-conns", "4", "-rate", "20",
		"-duration", "500ms", "-codecs", "encoding/json,msgpack", "-mix", "50,50", "-format", "json"})
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Schema    string           `json:"schema"`
		Env       map[string]any   `json:"env"`
		Transport []map[string]any `json:"transport"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out.Bytes())
	}
	if rep.Schema != "serbench-load/v1" || rep.Env["go"] == nil || len(rep.Transport) != 2 {
		t.Fatalf("report: %s", out.Bytes())
	}
	if err := schema.Validate(out.Bytes()); err != nil {
		t.Errorf("output does not conform to docs/schema: %v", err)
	}
	for _, r := range rep.Transport {
		for _, k := range []string{"transport", "codec", "scenario", "conns", "rate", "sent", "received", "lost", "p50_ms", "p99_ms", "p999_ms", "msgs_per_s", "wire_bytes_per_msg"} {
			if _, ok := r[k]; !ok {
				t.Errorf("entry lacks %q: %v", k, r)
			}
		}
		if runtime.GOOS == "linux" && r["peak_rss_scope"] != "phase" {
			t.Errorf("peak RSS scope %v, want phase on Linux", r["peak_rss_scope"])
		}
		if r["lost"].(float64) != 0 || r["received"].(float64) != 20 {
			t.Errorf("entry: %v", r)
		}
	}
}

// A bad flag value is a usage error (exit 2), checked before any server
// starts; an unwritable -o fails (exit 1) before the hour-long run.
func TestLoadBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"load", "-format", "xml"}, 2},
		{[]string{"load", "-codecs", "nope", "-duration", "1s"}, 2},
		{[]string{"load", "-transport", "udp"}, 2},
		{[]string{"load", "-mix", "a,b"}, 2},
		{[]string{"load", "-mix", "1", "-codecs", "msgpack,cbor"}, 2},
		{[]string{"load", "-conns", "-1"}, 2},
		{[]string{"load", "-rate", "-1"}, 2},
		{[]string{"load", "-duration", "1ms"}, 2},
		{[]string{"load", "-url", "http://10.0.0.1:8080"}, 2},
		{[]string{"load", "-scenarios", "nope"}, 2},
		{[]string{"load", "-switch", "nope"}, 2},
		{[]string{"load", "-overflow", "spill"}, 2},
		{[]string{"load", "-queue", "-1"}, 2},
		{[]string{"load", "-transport", "http", "-framework", "rails"}, 2},
		{[]string{"load", "-transport", "http", "-method", "PUT"}, 2},
		{[]string{"load", "-transport", "http", "-queue", "5"}, 2},
		{[]string{"load", "-transport", "http", "-max", "-slo", "0s"}, 2},
		{[]string{"load", "-o", "/nonexistent-dir/r.json", "-duration", "1h"}, 1},
	} {
		if err := run(context.Background(), io.Discard, io.Discard, tc.args); exitCode(err) != tc.code || err == nil {
			t.Errorf("%v: err = %v (exit %d), want exit %d", tc.args, err, exitCode(err), tc.code)
		}
	}
}

// -scenarios runs each scenario in turn, as -scenarios does for run;
// -cpuprofile names a folder, as it does for run.
func TestLoadScenariosAndProfileFolder(t *testing.T) {
	var out bytes.Buffer
	prof := filepath.Join(t.TempDir(), "prof")
	err := run(context.Background(), &out, io.Discard, []string{"load", "-transport", "ws", "-conns", "2", "-rate", "20",
		"-duration", "300ms", "-grace", "1s", "-scenarios", "ws-message,sse-event", "-cpuprofile", prof, "-format", "json"})
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Transport []struct {
			Scenario string `json:"scenario"`
			Lost     uint64 `json:"lost"`
		} `json:"transport"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Transport) != 2 || rep.Transport[0].Scenario != "ws-message" || rep.Transport[1].Scenario != "sse-event" {
		t.Fatalf("scenarios: %+v", rep.Transport)
	}
	if _, err := os.Stat(filepath.Join(prof, "load_ws.pprof")); err != nil {
		t.Errorf("profile: %v", err)
	}
}
