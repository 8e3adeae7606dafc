package load_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/internal/servertest"
	"github.com/serbench/serbench/load"
	"github.com/serbench/serbench/transport/server"
)

// Six connections at fan-out 3 share two streams: the server publishes each
// message once per stream and delivers it to three connections, and every
// connection receives every message once, in order.
func TestFanoutSharesStreams(t *testing.T) {
	base := servertest.Start(t, server.Options{}).URL
	for _, tr := range load.Transports {
		t.Run(tr, func(t *testing.T) {
			rs, err := load.Run(context.Background(), load.Options{
				Registry: all.Registry(), Transport: tr, URL: base, Conns: 6, Fanout: 3,
				Rate: 200, Duration: 50 * time.Millisecond, Codecs: []string{"cbor"}, Grace: 20 * time.Second,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) != 1 {
				t.Fatalf("%d results, want 1", len(rs))
			}
			r := rs[0]
			const perStream = 10 // ceil(200 msg/s × 50ms)
			if r.Fanout != 3 || r.Streams != 2 || r.Conns != 6 {
				t.Errorf("fanout %d streams %d conns %d, want 3, 2, 6", r.Fanout, r.Streams, r.Conns)
			}
			if r.Sent != 2*perStream || r.Delivered != 6*perStream {
				t.Errorf("sent %d delivered %d, want %d and %d", r.Sent, r.Delivered, 2*perStream, 6*perStream)
			}
			if r.Expected != 6*perStream || r.Received != r.Expected || r.Lost != 0 || r.Duplicates != 0 ||
				r.LossyConns != 0 || r.DisorderedConns != 0 || r.DecodeErrors != 0 || r.Errors != 0 {
				t.Errorf("%+v", r)
			}
			if r.MsgsPerS <= 0 { // from the connections' last receive times
				t.Errorf("msgs/s %v, want a rate", r.MsgsPerS)
			}
		})
	}
}

// A fan-out out of [1, conns], conns not a multiple of it, or a fan-out
// with mix or switch is an error naming the flags, before anything runs.
func TestFanoutErrors(t *testing.T) {
	for _, tc := range []struct {
		o    load.Options
		want []string
	}{
		{load.Options{Conns: 4, Fanout: 5}, []string{"fanout 5", "conns 4", "-conns", "-fanout"}},
		{load.Options{Conns: 4, Fanout: -1}, []string{"fanout -1", "-fanout"}},
		{load.Options{Conns: 10, Fanout: 3}, []string{"conns 10", "fanout 3", "-conns 9"}},
		{load.Options{Conns: 4, Fanout: 2, Codecs: []string{"cbor", "msgpack"}, Mix: []float64{1, 1}}, []string{"fanout 2", "mix"}},
	} {
		tc.o.Registry, tc.o.URL = all.Registry(), "http://127.0.0.1:1"
		_, err := tc.o.Effective()
		if err == nil {
			t.Errorf("%+v: no error", tc.o)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("conns %d fanout %d: error %q does not name %q", tc.o.Conns, tc.o.Fanout, err, w)
			}
		}
	}
	o := load.Options{Registry: all.Registry(), URL: "http://127.0.0.1:1", Conns: 6, Fanout: 3}
	if e, err := o.Effective(); err != nil || e.Fanout != 3 {
		t.Errorf("conns 6 fanout 3: %v, fanout %d", err, e.Fanout)
	}
	if e, _ := (load.Options{Registry: all.Registry(), URL: "http://127.0.0.1:1"}).Effective(); e.Fanout != 1 {
		t.Errorf("default fanout %d, want 1", e.Fanout)
	}
}

// Push load whose connections need more descriptors than the hard open
// file limit is refused by Validate, naming -conns, before a server or a
// connection starts.
func TestConnsAboveDescriptorLimit(t *testing.T) {
	_, hard, err := server.OpenFileLimits()
	if err != nil {
		t.Skip(err)
	}
	if hard >= 2*100000+64 {
		t.Skipf("hard open file limit %d holds 100000 connections in process", hard)
	}
	s := load.Session{Options: load.Options{Registry: all.Registry(), URL: "", Conns: 100000}, Server: &server.Server{}}
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "-conns 100000") || !strings.Contains(err.Error(), "hard open file limit") {
		t.Errorf("Validate: %v, want an error naming -conns and the hard limit", err)
	}
}
