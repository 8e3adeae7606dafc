package load

import (
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/server"
)

// Validate checks every scenario's options before anything starts, an
// empty URL standing for the server the session would start.
func TestSessionValidate(t *testing.T) {
	reg := all.Registry()
	srv, err := server.New(server.Options{Resolver: transport.Resolver{Codecs: reg}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	env := func(time.Time, []codec.Codec) env.Env { return env.Env{} }
	for _, tc := range []struct {
		name string
		s    Session
		want string
	}{
		{"push", Session{Server: srv, Env: env, Scenarios: []string{"ws-message", "sse-event"}}, ""},
		{"push to a URL", Session{Options: Options{URL: "http://127.0.0.1:9"}, Env: env}, ""},
		{"http", Session{HTTP: &HTTPOptions{}, Env: env}, ""},
		{"no server", Session{Env: env}, "no URL and no Server"},
		{"conns", Session{Options: Options{Conns: -1}, Server: srv, Env: env}, "invalid conns -1"},
		{"second scenario", Session{Server: srv, Env: env, Scenarios: []string{"ws-message", "nope"}}, `"nope"`},
		{"not loopback", Session{Options: Options{URL: "http://10.0.0.1:80"}, Env: env}, "refusing target"},
		{"slo", Session{HTTP: &HTTPOptions{}, Max: true, Env: env}, "invalid SLO 0s"},
		{"framework", Session{HTTP: &HTTPOptions{Framework: "rails"}, Env: env}, `unknown framework "rails"`},
		{"no registry", Session{Server: srv, Env: env}, "Options.Registry is nil"},
		{"http, no registry", Session{HTTP: &HTTPOptions{}, Env: env}, "HTTPOptions.Registry is nil"},
	} {
		if !strings.Contains(tc.name, "no registry") {
			if tc.s.HTTP != nil {
				tc.s.HTTP.Registry = reg
			} else {
				tc.s.Options.Registry = reg
			}
		}
		err := tc.s.Validate()
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestSessionPushLength(t *testing.T) {
	o := Options{Codecs: []string{"a", "b"}, Duration: 10 * time.Second, Grace: time.Second}
	for _, tc := range []struct {
		s    Session
		want time.Duration
	}{
		{Session{Options: o}, 22 * time.Second},
		{Session{Options: o, Scenarios: []string{"x", "y", "z"}}, 66 * time.Second},
	} {
		if got := tc.s.PushLength(); got != tc.want {
			t.Errorf("%d scenarios: %v, want %v", len(tc.s.Scenarios), got, tc.want)
		}
	}
	o.Mix = []float64{1, 1}
	if got := (Session{Options: o}).PushLength(); got != 11*time.Second {
		t.Errorf("mix: %v, want 11s", got)
	}
}
