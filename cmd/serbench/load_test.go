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

func TestLoadBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"load", "-format", "xml"},
		{"load", "-codecs", "nope", "-duration", "1s"},
		{"load", "-transport", "udp"},
		{"load", "-mix", "a,b"},
		{"load", "-o", "/nonexistent-dir/r.json", "-duration", "1h"}, // fails before the hour-long run
	} {
		if err := run(context.Background(), io.Discard, io.Discard, args); err == nil {
			t.Errorf("%v: no error", args)
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
