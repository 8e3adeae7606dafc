package server_test

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/transport/server"
)

// CheckDescriptors refuses a need above the hard limit, naming the flag,
// its value, the need and the limit; at or below it, nothing.
func TestCheckDescriptors(t *testing.T) {
	if err := server.CheckDescriptors("-conns", 100, 20000, 20000); err != nil {
		t.Errorf("need = hard: %v", err)
	}
	err := server.CheckDescriptors("-conns", 100000, 200064, 20000)
	if err == nil {
		t.Fatal("need above hard: no error")
	}
	for _, w := range []string{"-conns 100000", "200064", "20000", "lower -conns"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
}

// A cap given above what the hard limit holds is refused naming its flag;
// a cap not given is left to the defaults (which fit the limit).
func TestCheckCaps(t *testing.T) {
	_, hard, err := server.OpenFileLimits()
	if err != nil {
		t.Skip(err)
	}
	if hard >= 1<<24 {
		t.Skipf("hard open file limit %d holds any cap", hard)
	}
	var o server.Options
	o.MaxConns, o.Hub.MaxSubscribers = 1<<24, 1<<24
	if err := server.CheckCaps(o, map[string]bool{}); err != nil {
		t.Errorf("caps not given: %v", err)
	}
	if err := server.CheckCaps(o, map[string]bool{"max-subscribers": true}); err == nil || !strings.Contains(err.Error(), "-max-subscribers 16777216") {
		t.Errorf("-max-subscribers above the limit: %v", err)
	}
	o.MaxConns = 10
	if err := server.CheckCaps(o, map[string]bool{"max-conns": true}); err != nil {
		t.Errorf("-max-conns 10: %v", err)
	}
}
