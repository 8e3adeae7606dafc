package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/server"
	"github.com/serbench/serbench/transport/sse"
	"github.com/serbench/serbench/transport/ws"
)

func init() {
	register("serve", "serve SSE (/sse) and WebSocket (/ws) push streams on loopback", cmdServe)
}

// serverFlags are the server options shared by serve and load.
type serverFlags struct {
	queue        int
	replay       int
	overflow     string
	linger       time.Duration
	flushEvery   int
	flushEveryT  time.Duration
	allowOrigins string
	ping         time.Duration
	compress     bool
}

func (f *serverFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&f.queue, "queue", transport.DefaultQueueLen, "per-connection queue length, in messages")
	fs.IntVar(&f.replay, "replay", transport.DefaultReplayLen, "per-stream replay buffer for Last-Event-ID, in messages")
	fs.StringVar(&f.overflow, "overflow", transport.DefaultOverflow.String(), "full queue policy: disconnect (client resumes) or drop (counted gap)")
	fs.DurationVar(&f.linger, "linger", transport.DefaultLinger, "how long a stream outlives its last client or its end")
	fs.IntVar(&f.flushEvery, "flush-every", sse.DefaultFlushEvery, "SSE: flush after this many events (1: every event)")
	fs.DurationVar(&f.flushEveryT, "flush-interval", sse.DefaultFlushInterval, "SSE: with -flush-every > 1, flush at least this often")
	fs.StringVar(&f.allowOrigins, "allow-origin", "", "WebSocket: comma-separated origins allowed besides the same origin (* for any)")
	fs.DurationVar(&f.ping, "ping", ws.DefaultPingInterval, "WebSocket: ping interval (pong deadline is twice this)")
	fs.BoolVar(&f.compress, "compress", false, "compress when the client asks: gzip on SSE, permessage-deflate on WebSocket (load: ask for it too)")
}

func (f *serverFlags) options() (server.Options, error) {
	var o server.Options
	ov, err := transport.ParseOverflow(f.overflow)
	if err != nil {
		return o, err
	}
	o.Hub = transport.Options{QueueLen: f.queue, ReplayLen: f.replay, Overflow: ov, Linger: f.linger}
	o.SSE.FlushEvery = f.flushEvery
	o.SSE.FlushInterval = f.flushEveryT
	o.WS.PingInterval = f.ping
	o.SSE.Gzip, o.WS.Compress = f.compress, f.compress
	if f.allowOrigins != "" {
		o.WS.AllowOrigins = strings.Split(f.allowOrigins, ",")
	}
	return o, nil
}

func cmdServe(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address (loopback by default)")
	var sf serverFlags
	sf.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: serbench serve [flags]")
		fmt.Fprintln(stderr, "\nEndpoints: GET / (demo page), /sse, /ws, /stats; query: scenario=ID&codec=ID&rate=R[&count=K&stream=NAME]")
		fmt.Fprintln(stderr, "HTTP APIs: GET and POST /api/{gin|echo|http}/{scenario}[?codec=ID] (or Accept/Content-Type), GET /api/stats")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	opts, err := sf.options()
	if err != nil {
		return err
	}
	srv, err := server.New(opts)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		srv.Close()
		return fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintf(stdout, "serbench serve: listening on http://%s/ (SSE /sse, WebSocket /ws, stats /stats)\n", ln.Addr())
	return srv.Serve(ctx, ln)
}
