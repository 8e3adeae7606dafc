package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"strings"
	"time"

	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/httpapi"
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
	allowHosts   string
	ping         time.Duration
	compress     bool

	maxTotalRate float64
	maxSubs      int
	maxConns     int
	readHeader   time.Duration
	readTimeout  time.Duration
	writeTimeout time.Duration
	idleTimeout  time.Duration
	apiDecode    string
	apiMaxBody   int64
	apiDecodeT   time.Duration
}

func (f *serverFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&f.queue, "queue", transport.DefaultQueueLen, "per-connection queue length, in messages")
	fs.IntVar(&f.replay, "replay", transport.DefaultReplayLen, "per-stream replay buffer for Last-Event-ID, in messages")
	fs.StringVar(&f.overflow, "overflow", transport.DefaultOverflow.String(), "full queue policy: disconnect (client resumes) or drop (counted gap)")
	fs.DurationVar(&f.linger, "linger", transport.DefaultLinger, "how long a stream outlives its last client or its end")
	fs.IntVar(&f.flushEvery, "flush-every", sse.DefaultFlushEvery, "SSE: flush after this many events (1: every event)")
	fs.DurationVar(&f.flushEveryT, "flush-interval", sse.DefaultFlushInterval, "SSE: with -flush-every > 1, flush at least this often")
	fs.StringVar(&f.allowOrigins, "allow-origin", "", "comma-separated origins (scheme://host[:port]) browsers may call any endpoint from besides the same origin and loopback origins (* for any)")
	fs.StringVar(&f.allowHosts, "allow-host", "", "comma-separated host names the Host header may name besides localhost, *.localhost and IP addresses (* for any)")
	fs.Float64Var(&f.maxTotalRate, "max-total-rate", transport.DefaultMaxTotalRate, "budget of messages/s delivered over all open streams (each stream's rate once per subscriber); new streams beyond it get 503")
	fs.IntVar(&f.maxSubs, "max-subscribers", transport.DefaultMaxSubscribers, "most SSE and WebSocket subscriptions open at once")
	fs.IntVar(&f.maxConns, "max-conns", server.DefaultMaxConns, "most connections open at once; more wait to be accepted")
	fs.DurationVar(&f.readHeader, "read-header-timeout", server.DefaultReadHeaderTimeout, "time to read a request's headers")
	fs.DurationVar(&f.readTimeout, "read-timeout", server.DefaultReadTimeout, "time to read a whole request, body included (streams lift it once they start)")
	fs.DurationVar(&f.writeTimeout, "write-timeout", server.DefaultWriteTimeout, "time to write a response other than a stream (streams have a deadline per write)")
	fs.DurationVar(&f.idleTimeout, "idle-timeout", server.DefaultIdleTimeout, "close a keep-alive connection idle this long")
	fs.StringVar(&f.apiDecode, "api-decode", strings.Join(httpapi.DefaultDecodeCodecs, ","), "comma-separated codecs that decode /api/ POST bodies (* for every codec; the default leaves out those docs/findings/hostile.md finds crashing or hanging)")
	fs.Int64Var(&f.apiMaxBody, "api-max-body", httpapi.DefaultMaxBodyBytes, "largest /api/ POST body, in bytes")
	fs.DurationVar(&f.apiDecodeT, "api-decode-timeout", httpapi.DefaultDecodeTimeout, "time limit of one /api/ body decode (503 past it)")
	fs.DurationVar(&f.ping, "ping", ws.DefaultPingInterval, "WebSocket: ping interval (pong deadline is twice this)")
	fs.BoolVar(&f.compress, "compress", false, "compress when the client asks: gzip on SSE, permessage-deflate on WebSocket (load: ask for it too)")
}

// fitLoad raises the in-process server's -max-total-rate and
// -max-subscribers, unless given on the command line, to what a load of
// conns connections at rate messages/s each needs: load's own server
// serves only load.
func (f *serverFlags) fitLoad(fs *flag.FlagSet, conns int, rate float64) {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if !set["max-total-rate"] {
		f.maxTotalRate = max(f.maxTotalRate, min(math.Ceil(float64(conns)*rate), transport.MaxMaxTotalRate))
	}
	if !set["max-subscribers"] {
		f.maxSubs = max(f.maxSubs, min(conns, 1<<24))
	}
	if !set["max-conns"] {
		f.maxConns = max(f.maxConns, min(conns+64, 1<<24))
	}
}

func (f *serverFlags) options() (server.Options, error) {
	var o server.Options
	ov, err := transport.ParseOverflow(f.overflow)
	if err != nil {
		return o, err
	}
	if f.maxTotalRate <= 0 || f.maxSubs <= 0 || f.maxConns <= 0 || f.readHeader <= 0 || f.readTimeout <= 0 || f.writeTimeout <= 0 || f.idleTimeout <= 0 || f.apiMaxBody <= 0 || f.apiDecodeT <= 0 {
		// Zero would mean "the default" to the options below: refuse it.
		return o, usagef("-max-total-rate, -max-subscribers, -max-conns, -read-header-timeout, -read-timeout, -write-timeout, -idle-timeout, -api-max-body and -api-decode-timeout must be > 0")
	}
	o.Hub = transport.Options{QueueLen: f.queue, ReplayLen: f.replay, Overflow: ov, Linger: f.linger,
		MaxTotalRate: f.maxTotalRate, MaxSubscribers: f.maxSubs}
	o.ReadHeaderTimeout, o.ReadTimeout, o.WriteTimeout, o.IdleTimeout = f.readHeader, f.readTimeout, f.writeTimeout, f.idleTimeout
	o.MaxConns = f.maxConns
	o.API.DecodeCodecs = splitList(f.apiDecode)
	if o.API.DecodeCodecs == nil {
		o.API.DecodeCodecs = []string{} // none: no POST body is decoded
	}
	o.API.MaxBodyBytes, o.API.DecodeTimeout = f.apiMaxBody, f.apiDecodeT
	o.SSE.FlushEvery = f.flushEvery
	o.SSE.FlushInterval = f.flushEveryT
	o.WS.PingInterval = f.ping
	o.SSE.Gzip, o.WS.Compress = f.compress, f.compress
	o.AllowOrigins = splitList(f.allowOrigins)
	o.AllowHosts = splitList(f.allowHosts)
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
		return usageError{err} // an option out of its range
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		srv.Close()
		return fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintf(stdout, "serbench serve: listening on http://%s/ (SSE /sse, WebSocket /ws, stats /stats)\n", ln.Addr())
	return srv.Serve(ctx, ln)
}
