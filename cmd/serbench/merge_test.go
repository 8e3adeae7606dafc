package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/load"
	"github.com/serbench/serbench/transport/server"
)

// Two load runs at once against one server, as two machines would, then
// merged: counts add up, the merged histogram holds every request, the
// clock check passes, and both documents conform to their schemas.
func TestMergeConcurrentRuns(t *testing.T) {
	srv, err := server.New(server.ChildOptions(all.Registry())) // msgpack decodes request bodies there
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { hs.Close(); srv.Close() })
	dir := t.TempDir()
	files := []string{filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")}
	var wg sync.WaitGroup
	errs := make([]error, len(files))
	for i, f := range files {
		wg.Go(func() {
			errs[i] = run(context.Background(), io.Discard, io.Discard, []string{"load", "-transport", "http", "-url", hs.URL,
				"-framework", "echo", "-codecs", "encoding/json,msgpack", "-rate", "50", "-duration", "400ms", "-conns", "8",
				"-format", "json", "-o", f})
		})
	}
	wg.Wait()
	var runs []load.Report
	for i, f := range files {
		if errs[i] != nil {
			t.Fatalf("load %d: %v", i, errs[i])
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		rep, err := load.ReadReport(bytes.NewReader(data), f)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, rep)
	}

	var out, stderr bytes.Buffer
	if err := run(context.Background(), &out, &stderr, append([]string{"merge", "-format", "json"}, files...)); err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(out.Bytes()); err != nil {
		t.Errorf("merge output: %v", err)
	}
	var m load.MergeReport
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	if !m.Clock.OK || stderr.Len() != 0 {
		t.Errorf("clock check failed for concurrent runs: %+v %s", m.Clock, stderr.String())
	}
	if len(m.HTTP) != 2 {
		t.Fatalf("%d merged results, want 2", len(m.HTTP))
	}
	for i, h := range m.HTTP {
		a, b := runs[0].HTTP[i], runs[1].HTTP[i]
		if h.Codec != a.Codec || h.OK != a.OK+b.OK || h.Requests != a.Requests+b.Requests || h.Errors != 0 {
			t.Errorf("%s: merged ok %d requests %d; runs %d+%d, %d+%d", h.Codec, h.OK, h.Requests, a.OK, b.OK, a.Requests, b.Requests)
		}
		mh, err := load.DecodeHistogram(h.Histogram)
		if err != nil || uint64(mh.TotalCount()) != h.OK {
			t.Errorf("%s: merged histogram %v, %d values for %d requests", h.Codec, err, mh.TotalCount(), h.OK)
		}
		if h.P99Ms < min(a.P99Ms, b.P99Ms) || h.P99Ms > max(a.P99Ms, b.P99Ms)*1.01 {
			t.Errorf("%s: merged p99 %g outside the runs' %g and %g", h.Codec, h.P99Ms, a.P99Ms, b.P99Ms)
		}
	}

	out.Reset()
	if err := run(context.Background(), &out, io.Discard, append([]string{"merge"}, files...)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"serbench merge: 2 runs", "clock check: starts within", ": ok", "echo  encoding/json"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

func TestMergeBadArgs(t *testing.T) {
	dir := t.TempDir()
	notLoad := filepath.Join(dir, "x.json")
	if err := os.WriteFile(notLoad, []byte(`{"schema":"serbench/v1","results":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"merge", notLoad}, "two load reports"},
		{[]string{"merge", "-format", "xml", notLoad, notLoad}, "xml"},
		{[]string{"merge", "-max-skew", "0s", notLoad, notLoad}, "max-skew"},
	} {
		err := run(context.Background(), io.Discard, io.Discard, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error naming %s", tc.args, err, tc.want)
		}
	}
}

func TestLoadHTTPRefusesPushFlags(t *testing.T) {
	err := run(context.Background(), io.Discard, io.Discard, []string{"load", "-transport", "http", "-mix", "50,50", "-codecs", "cbor,msgpack"})
	if err == nil || !strings.Contains(err.Error(), "-mix") {
		t.Errorf("err = %v, want one naming -mix", err)
	}
}

// load -transport http with its own server process: every request
// answered, the JSON document conforms to its schema.
func TestLoadHTTPChildServer(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), &out, io.Discard, []string{"load", "-transport", "http", "-framework", "nethttp", "-method", "GET",
		"-codecs", "cbor", "-rate", "40", "-duration", "300ms", "-conns", "4", "-format", "json"})
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(out.Bytes()); err != nil {
		t.Error(err)
	}
	rep, err := load.ReadReport(&out, "stdout")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.HTTP) != 1 || rep.HTTP[0].OK == 0 || rep.HTTP[0].Errors != 0 || rep.HTTP[0].CPUScope != "server" || rep.HTTP[0].Framework != "http" {
		t.Errorf("result: %+v", rep.HTTP)
	}
}
