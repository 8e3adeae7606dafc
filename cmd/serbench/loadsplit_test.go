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
	"github.com/serbench/serbench/load"
)

// A push load split over 2 server and 4 client processes: one merged
// report whose counts add up over the processes, with their memory.
func TestLoadSplit(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 6 processes")
	}
	var out, errOut bytes.Buffer
	prof := filepath.Join(t.TempDir(), "prof")
	err := run(context.Background(), &out, &errOut, []string{"load", "-transport", "ws", "-conns", "40", "-fanout", "5",
		"-servers", "2", "-clients", "4", "-rate", "20", "-duration", "300ms", "-cpuprofile", prof, "-format", "json"})
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	// -cpuprofile: one profile per process, each a non-empty pprof file.
	for _, name := range []string{"server-1.pprof", "server-2.pprof", "client-1/load_ws.pprof", "client-4/load_ws.pprof"} {
		if fi, err := os.Stat(filepath.Join(prof, name)); err != nil || fi.Size() == 0 {
			t.Errorf("profile %s: %v", name, err)
		}
	}
	if err := schema.Validate(out.Bytes()); err != nil {
		t.Errorf("output does not conform to docs/schema: %v", err)
	}
	var m load.MergeReport
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("%v\n%s", err, out.Bytes())
	}
	if len(m.Sources) != 4 || len(m.Transport) != 1 || m.Processes == nil {
		t.Fatalf("merged report: %s", out.Bytes())
	}
	r, p := m.Transport[0], m.Processes
	// 8 streams of 6 messages (ceil(20 * 0.3)), each encoded once.
	if r.Conns != 40 || r.Streams != 8 || r.Fanout != 5 || r.Sent != 48 || r.Expected != 240 || r.Received+r.Lost != 240 {
		t.Errorf("merged result: %+v", r)
	}
	if p.Servers != 2 || p.Clients != 4 || p.Conns != 40 {
		t.Errorf("processes: %+v", p)
	}
	if runtime.GOOS == "linux" && (p.ServerBaseRSSBytes <= 0 || p.ServerPeakRSSBytes < p.ServerBaseRSSBytes || p.ClientPeakRSSBytes <= 0 || p.PeakBytesPerConn <= 0) {
		t.Errorf("processes' memory: %+v", p)
	}
	if runtime.GOOS == "linux" && (p.ServerCPUSeconds < 0 || p.ClientCPUSeconds < 0 || p.ServerCPUSeconds+p.ClientCPUSeconds <= 0) {
		t.Errorf("processes' CPU after the idle sample: %+v", p)
	}
}

// Split flags that cannot work are usage errors naming the flag, before
// any process starts.
func TestLoadSplitBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"-url", "http://127.0.0.1:1", "-servers", "2"}, []string{"-servers 2", "-url"}},
		{[]string{"-conns", "40", "-fanout", "10", "-servers", "2", "-clients", "3"}, []string{"-clients 3", "multiple"}},
		{[]string{"-conns", "40", "-fanout", "10", "-servers", "5"}, []string{"-servers 5", "4 streams"}},
		{[]string{"-transport", "http", "-servers", "2"}, []string{"-servers", "http"}},
	} {
		err := run(context.Background(), io.Discard, io.Discard, append([]string{"load", "-duration", "1s"}, tc.args...))
		if exitCode(err) != 2 {
			t.Errorf("%v: exit %d (%v), want 2", tc.args, exitCode(err), err)
		}
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %v lacks %q", tc.args, err, w)
			}
		}
	}
}
