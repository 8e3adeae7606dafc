package server_test

import (
	"context"
	"encoding/json"
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
	roles := map[string]childproc.Role{server.ChildRole: func(string) error { return server.ServeChild(os.Stdin, os.Stdout, all.Registry()) }}
	os.Exit(childproc.RunTests(m, roles))
}

// The child process serves the API; stop ends it and it no longer answers.
func TestStartProcess(t *testing.T) {
	url, stop, err := server.StartProcess(context.Background())
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
