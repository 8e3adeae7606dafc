// Package server mounts serbench's push endpoints on one http.Handler:
//
//	GET /        the demo page: decodes every codec a browser can decode
//	             over SSE and WebSocket and shows the cost (static/page.js)
//	GET /sse     Server-Sent Events (package transport/sse)
//	GET /ws      WebSocket (package transport/ws)
//	GET /stats   JSON transport.ServerStats; ?run=ID selects a load run
//	POST /stats  the same; ?reset_peak=1 then starts a new peak RSS
//	             measurement (Linux); GET refuses reset_peak with 405
//	GET /static/ the page's script and vendored decoders (static/vendor)
//	GET /browser/codecs?scenario=ID  codecs and their browser decoders (BrowserCodecs)
//	GET /browser/proto.json          the .proto schema for protobufjs (ProtobufJSDescriptor)
//	/api/...     request/response APIs on Gin, Echo and net/http
//	             (package transport/httpapi)
//
// and runs it with graceful shutdown.
//
// Every request first passes a check of its Host and Origin headers
// (Options.AllowHosts, Options.AllowOrigins; see the guard in guard.go),
// and Serve's http.Server has header, read, write and idle timeouts: see
// Options for each limit and its default.
package server

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"time"

	"golang.org/x/net/netutil"

	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/httpapi"
	"github.com/serbench/serbench/transport/sse"
	"github.com/serbench/serbench/transport/ws"
)

// Options configure a Server. The zero value means defaults but for
// Resolver.Codecs, which the caller passes (codec/all.Registry() for every
// codec); a nil Resolver.Scenarios is every seed scenario.
type Options struct {
	Hub      transport.Options
	SSE      sse.Options
	WS       ws.Options
	API      httpapi.Options
	Resolver transport.Resolver
	// AllowHosts lists host names (no port; compared without case) that a
	// request's Host header may name besides localhost, *.localhost and IP
	// addresses; "*" allows any. A deployment reached by a DNS name lists
	// it here; the check is what defeats DNS rebinding.
	AllowHosts []string
	// AllowOrigins lists origins (scheme://host[:port], compared without
	// case) a browser request may come from besides the same origin and
	// loopback origins; "*" allows any. Requests without Origin (clients
	// that are not browsers) are not affected. WS.AllowOrigins, the older
	// place for this list, is added to it.
	AllowOrigins []string
	// ReadHeaderTimeout bounds reading a request's headers. Default 5s;
	// range [1ms, 10m].
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request, body included (a slow
	// POST body is cut off there). SSE and WebSocket responses clear it
	// once the stream starts. Default 10s; range [1ms, 10m].
	ReadTimeout time.Duration
	// WriteTimeout bounds writing a response other than a stream; SSE and
	// WebSocket have a deadline per write instead (sse.Options.WriteTimeout,
	// ws.Options.WriteTimeout). Default 10s; range [1ms, 10m].
	WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection that sends no request for
	// this long. Default 10s; range [1ms, 10m].
	IdleTimeout time.Duration
	// MaxHeaderBytes caps a request's header, in bytes. Default 64 KiB;
	// range [4 KiB, 1 MiB].
	MaxHeaderBytes int
	// MaxConns caps the connections Serve holds open at once
	// (golang.org/x/net/netutil.LimitListener): more wait in the kernel's
	// accept queue until one closes. Default 25000, or the open file
	// limit less DescriptorReserve when lower (FitDescriptors); range
	// [1, 1<<24]. Hub.MaxSubscribers and Hub.MaxStreams default likewise
	// to their hub defaults fitted to the limit.
	MaxConns int
	// ShutdownTimeout bounds graceful shutdown: after it, Serve closes every
	// connection left and returns. Default 1s; range [1ms, 1m].
	ShutdownTimeout time.Duration
}

// Defaults of Options.
const (
	DefaultReadHeaderTimeout = 5 * time.Second
	DefaultReadTimeout       = 10 * time.Second
	DefaultWriteTimeout      = 10 * time.Second
	DefaultIdleTimeout       = 10 * time.Second
	DefaultMaxHeaderBytes    = 64 << 10
	DefaultMaxConns          = 25000
	DefaultShutdownTimeout   = time.Second
)

// Effective returns o with defaults filled in, or an error naming the first
// field out of range. It does not look into Hub, SSE, WS and API, which
// their packages check, but for the defaults of Hub.MaxSubscribers and
// Hub.MaxStreams, which it fits to the open file limit.
func (o Options) Effective() (Options, error) {
	durs := []struct {
		name string
		v    *time.Duration
		def  time.Duration
		max  time.Duration
	}{
		{"ReadHeaderTimeout", &o.ReadHeaderTimeout, DefaultReadHeaderTimeout, 10 * time.Minute},
		{"ReadTimeout", &o.ReadTimeout, DefaultReadTimeout, 10 * time.Minute},
		{"WriteTimeout", &o.WriteTimeout, DefaultWriteTimeout, 10 * time.Minute},
		{"IdleTimeout", &o.IdleTimeout, DefaultIdleTimeout, 10 * time.Minute},
		{"ShutdownTimeout", &o.ShutdownTimeout, DefaultShutdownTimeout, time.Minute},
	}
	for _, d := range durs {
		if *d.v == 0 {
			*d.v = d.def
		}
		if *d.v < time.Millisecond || *d.v > d.max {
			return o, fmt.Errorf("server: invalid %s %v (range is [1ms, %v])", d.name, *d.v, d.max)
		}
	}
	if o.MaxHeaderBytes == 0 {
		o.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if o.MaxHeaderBytes < 4<<10 || o.MaxHeaderBytes > 1<<20 {
		return o, fmt.Errorf("server: invalid MaxHeaderBytes %d (range is [4096, 1048576])", o.MaxHeaderBytes)
	}
	if o.MaxConns == 0 {
		o.MaxConns = FitDescriptors(DefaultMaxConns)
	}
	if o.Hub.MaxSubscribers == 0 {
		o.Hub.MaxSubscribers = FitDescriptors(transport.DefaultMaxSubscribers)
	}
	if o.Hub.MaxStreams == 0 {
		o.Hub.MaxStreams = FitDescriptors(transport.DefaultMaxStreams)
	}
	if o.MaxConns < 1 || o.MaxConns > 1<<24 {
		return o, fmt.Errorf("server: invalid MaxConns %d (range is [1, %d])", o.MaxConns, 1<<24)
	}
	return o, nil
}

// Server is the hub and its handlers.
type Server struct {
	Hub     *transport.Hub
	SSE     *sse.Handler
	WS      *ws.Handler
	API     *httpapi.API
	opts    Options
	mux     *http.ServeMux
	handler http.Handler // mux behind the guard

	protoDesc []byte // /browser/proto.json
}

// New validates opts, starts a Hub and builds the handlers. Close (or Serve
// returning) stops the hub.
func New(opts Options) (*Server, error) {
	if opts.Resolver.Codecs == nil {
		return nil, errors.New("server: Options.Resolver.Codecs is nil: pass the registry of the codecs to serve (codec/all.Registry() for every codec)")
	}
	if opts.Resolver.Scenarios == nil {
		opts.Resolver.Scenarios = scenario.Seeds()
	}
	opts, err := opts.Effective()
	if err != nil {
		return nil, err
	}
	// The guard checks Origin on every endpoint, /ws included, before the
	// WebSocket handler's own check, which would refuse loopback origins:
	// WS.AllowOrigins joins AllowOrigins there.
	opts.AllowOrigins = append(slices.Clip(opts.AllowOrigins), opts.WS.AllowOrigins...)
	opts.WS.AllowOrigins = []string{"*"}
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
	apiOpts := opts.API
	apiOpts.Resolver = opts.Resolver
	if s.API, err = httpapi.New(apiOpts); err != nil {
		hub.Close()
		return nil, err
	}
	s.mux.Handle("/api/", s.API)
	s.mux.Handle("GET /sse", s.SSE)
	s.mux.Handle("GET /ws", s.WS)
	s.mux.HandleFunc("GET /stats", s.stats)
	s.mux.HandleFunc("POST /stats", s.stats)
	s.mux.Handle("GET /{$}", isolated(http.HandlerFunc(index)))
	if err := s.mountBrowser(); err != nil {
		hub.Close()
		return nil, err
	}
	s.handler = newGuard(s.mux, opts.AllowHosts, opts.AllowOrigins)
	return s, nil
}

// Options returns the options in effect.
func (s *Server) Options() Options { return s.opts }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Close stops the hub, ending every stream, and the API's idle decode
// workers.
func (s *Server) Close() {
	s.Hub.Close()
	s.API.Close()
}

// Serve serves on ln until ctx is done, then shuts down gracefully: the hub
// ends every stream (SSE responses end, WebSocket connections get a close
// frame 1001), then the HTTP server waits up to ShutdownTimeout for
// handlers to return, then closes the connections left (hijacked WebSocket
// connections end on their own within ws.Options.CloseWait). It returns
// nil after a shutdown caused by ctx, within ShutdownTimeout of it.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.opts.ReadHeaderTimeout,
		ReadTimeout:       s.opts.ReadTimeout,
		WriteTimeout:      s.opts.WriteTimeout,
		IdleTimeout:       s.opts.IdleTimeout,
		MaxHeaderBytes:    s.opts.MaxHeaderBytes,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(netutil.LimitListener(ln, s.opts.MaxConns)) }()
	select {
	case err := <-errc:
		s.Close()
		return fmt.Errorf("server: %w", err)
	case <-ctx.Done():
	}
	defer s.API.Close()
	s.Hub.Close()
	sctx, cancel := context.WithTimeout(context.Background(), s.opts.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	if errors.Is(err, context.DeadlineExceeded) {
		// Handlers still running past ShutdownTimeout (a client that
		// reads nothing, say) lose their connections; that is the
		// shutdown asked for, not an error.
		srv.Close()
		return nil
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
	q := r.URL.Query()
	reset := q.Get("reset_peak")
	if reset != "" && reset != "1" {
		http.Error(w, "server: invalid reset_peak "+quoteShort(reset)+" (want 1)", http.StatusBadRequest)
		return
	}
	if reset == "1" && r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "server: reset_peak=1 changes the server's state: send it with POST /stats", http.StatusMethodNotAllowed)
		return
	}
	st := s.Hub.Stats(q.Get("run"))
	if reset == "1" {
		st.PeakReset = env.ResetPeakRSS()
	}
	_ = json.NewEncoder(w).Encode(st)
}

//go:embed index.html
var indexHTML []byte

func index(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(indexHTML)
}
