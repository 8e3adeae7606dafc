package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"testing"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/server"
)

// TestMain serves server.ChildRole when StartProcess starts the test
// binary again.
func TestMain(m *testing.M) {
	roles := map[string]childproc.Role{server.ChildRole: func(string) error { return server.ServeChild(os.Stdin, os.Stdout, all.Registry(), nil) }}
	os.Exit(childproc.RunTests(m, roles))
}

// The child process serves the API; stop ends it and it no longer answers.
func TestStartProcess(t *testing.T) {
	url, stop, err := server.StartProcess(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(url + "/stats")
	if err != nil {
		stop()
		t.Fatal(err)
	}
	var st transport.ServerStats
	err = json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || st.Goroutines == 0 {
		t.Errorf("GET /stats: %s, %+v, %v", resp.Status, st, err)
	}
	stop()
	http.DefaultClient.CloseIdleConnections()
	if resp, err := http.Get(url + "/stats"); err == nil {
		resp.Body.Close()
		t.Errorf("GET /stats after stop: %s, want a connection error", resp.Status)
	}
}

// The child serves the annotation workloads besides the seeds (plan
// -verify runs them), over SSE with gzip when asked.
func TestChildServesAnnot(t *testing.T) {
	url, stop, err := server.StartProcess(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	defer http.DefaultClient.CloseIdleConnections()
	for _, id := range []string{"annot/coo@small", "ws-message"} {
		req, _ := http.NewRequest(http.MethodGet, url+"/sse?scenario="+id+"&codec=encoding/json&count=1", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "gzip" || len(body) == 0 {
			t.Errorf("%s: %s, Content-Encoding %q, %d bytes, %v", id, resp.Status, resp.Header.Get("Content-Encoding"), len(body), err)
		}
	}
}
