// Package servertest serves a transport/server.Server on a loopback port
// for the tests of the packages that talk to one (transport/server, load,
// examples/k6), in the manner of net/http/httptest.
package servertest

import (
	"context"
	"net"
	"testing"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/transport/server"
)

// Server is a server.Server serving on a loopback port until its test ends.
type Server struct {
	// URL is the base address, "http://127.0.0.1:PORT".
	URL string
	// Server is the server being served.
	Server *server.Server

	cancel  context.CancelFunc
	done    chan error
	stopped bool
	err     error
}

// Start makes a server.Server from o (with codec/all's registry when
// o.Resolver.Codecs is nil) and serves it on a free loopback port until
// tb ends. It ends tb at once (Fatal) when the server cannot be made or
// the port cannot be opened. When tb ends, Start's cleanup stops the
// server unless the test has (Stop), and reports a Serve error with
// tb.Errorf.
func Start(tb testing.TB, o server.Options) *Server {
	tb.Helper()
	if o.Resolver.Codecs == nil {
		o.Resolver.Codecs = all.Registry()
	}
	srv, err := server.New(o)
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{URL: "http://" + ln.Addr().String(), Server: srv, cancel: cancel, done: make(chan error, 1)}
	go func() { s.done <- srv.Serve(ctx, ln) }()
	tb.Cleanup(func() {
		if s.stopped {
			return
		}
		if err := s.Stop(); err != nil {
			tb.Errorf("Serve: %v", err)
		}
	})
	return s
}

// Stop cancels Serve's context, waits for Serve to return and returns its
// error. Later calls return the same error. It is not safe for concurrent
// use.
func (s *Server) Stop() error {
	if !s.stopped {
		s.stopped = true
		s.cancel()
		s.err = <-s.done
	}
	return s.err
}
