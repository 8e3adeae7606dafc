// Package server mounts serbench's push endpoints on one http.Handler:
//
//	GET /        the demo page: decodes every codec a browser can decode
//	             over SSE and WebSocket and shows the cost (static/page.js)
//	GET /sse     Server-Sent Events (package transport/sse)
//	GET /ws      WebSocket (package transport/ws)
//	GET /stats   JSON transport.ServerStats; ?run=ID selects a load run,
//	             &reset_peak=1 starts a new peak RSS measurement (Linux)
//	GET /static/ the page's script and vendored decoders (static/vendor)
//	GET /browser/codecs?scenario=ID  codecs and their browser decoders (BrowserCodecs)
//	GET /browser/proto.json          the .proto schema for protobufjs (ProtobufJSDescriptor)
//	/api/...     request/response APIs on Gin, Echo and net/http
//	             (package transport/httpapi)
//
// and runs it with graceful shutdown.
package server

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/httpapi"
	"github.com/serbench/serbench/transport/sse"
	"github.com/serbench/serbench/transport/ws"
)

// Options configure a Server. The zero value means defaults: every codec of
// codec/all and every seed scenario.
type Options struct {
	Hub      transport.Options
	SSE      sse.Options
	WS       ws.Options
	Resolver transport.Resolver
	// ShutdownTimeout bounds graceful shutdown. Default DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
}

// DefaultShutdownTimeout is Options.ShutdownTimeout's default.
const DefaultShutdownTimeout = 5 * time.Second

// Server is the hub and its handlers.
type Server struct {
	Hub  *transport.Hub
	SSE  *sse.Handler
	WS   *ws.Handler
	API  *httpapi.API
	opts Options
	mux  *http.ServeMux

	protoDesc []byte // /browser/proto.json
}

// New validates opts, starts a Hub and builds the handlers. Close (or Serve
// returning) stops the hub.
func New(opts Options) (*Server, error) {
	if opts.Resolver.Codecs == nil {
		opts.Resolver.Codecs = all.Registry()
	}
	if opts.Resolver.Scenarios == nil {
		opts.Resolver.Scenarios = scenario.Seeds()
	}
	if opts.ShutdownTimeout == 0 {
		opts.ShutdownTimeout = DefaultShutdownTimeout
	}
	hub, err := transport.NewHub(opts.Hub)
	if err != nil {
		return nil, err
	}
	s := &Server{Hub: hub, opts: opts, mux: http.NewServeMux()}
	if s.SSE, err = sse.NewHandler(hub, opts.Resolver, opts.SSE); err != nil {
		hub.Close()
		return nil, err
	}
	if s.WS, err = ws.NewHandler(hub, opts.Resolver, opts.WS); err != nil {
		hub.Close()
		return nil, err
	}
	if s.API, err = httpapi.New(httpapi.Options{Resolver: opts.Resolver}); err != nil {
		hub.Close()
		return nil, err
	}
	s.mux.Handle("/api/", s.API)
	s.mux.Handle("GET /sse", s.SSE)
	s.mux.Handle("GET /ws", s.WS)
	s.mux.HandleFunc("GET /stats", s.stats)
	s.mux.Handle("GET /{$}", isolated(http.HandlerFunc(index)))
	if err := s.mountBrowser(); err != nil {
		hub.Close()
		return nil, err
	}
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Close stops the hub, ending every stream.
func (s *Server) Close() { s.Hub.Close() }

// Serve serves on ln until ctx is done, then shuts down gracefully: the hub
// ends every stream (SSE responses end, WebSocket connections get a close
// frame 1001), then the HTTP server waits up to ShutdownTimeout for
// handlers to return. It returns nil after a shutdown caused by ctx.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		s.Hub.Close()
		return fmt.Errorf("server: %w", err)
	case <-ctx.Done():
	}
	s.Hub.Close()
	sctx, cancel := context.WithTimeout(context.Background(), s.opts.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	if err != nil {
		srv.Close()
		return fmt.Errorf("server: shutdown: %w", err)
	}
	return nil
}

func (s *Server) stats(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	st := s.Hub.Stats(r.URL.Query().Get("run"))
	if r.URL.Query().Get("reset_peak") == "1" {
		st.PeakReset = transport.ResetPeakRSS()
	}
	_ = json.NewEncoder(w).Encode(st)
}

//go:embed index.html
var indexHTML []byte

func index(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(indexHTML)
}
