package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"strings"

	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/transport"
	"github.com/serbench/serbench/transport/httpapi"
	"github.com/serbench/serbench/transport/server"
	"github.com/serbench/serbench/transport/sse"
	"github.com/serbench/serbench/transport/ws"
)

// serverFlags are the server options shared by serve and load, parsed
// straight into server.Options; the lists, -overflow and -compress are
// copied in by server.
type serverFlags struct {
	o                       server.Options
	overflow                string
	allowOrigins, allowHost string
	apiDecode               string
	apiDecodeMemory         int64 // MiB
	compress                bool
}

func (f *serverFlags) register(fs *flag.FlagSet) {
	o := &f.o
	fs.IntVar(&o.Hub.QueueLen, "queue", transport.DefaultQueueLen, "per-connection queue length, in messages")
	fs.IntVar(&o.Hub.ReplayLen, "replay", transport.DefaultReplayLen, "per-stream replay buffer for Last-Event-ID, in messages")
	fs.Int64Var(&o.Hub.MaxStreamReplayBytes, "max-stream-replay-bytes", transport.DefaultMaxStreamReplayBytes, "payload bytes one stream's replay buffer keeps (the oldest go first)")
	fs.Int64Var(&o.Hub.MaxReplayBytes, "max-replay-bytes", transport.DefaultMaxReplayBytes, "payload bytes every stream's replay buffers keep together (the oldest of a stream go first)")
	fs.StringVar(&f.overflow, "overflow", transport.DefaultOverflow.String(), "full queue policy: disconnect (client resumes) or drop (counted gap)")
	fs.DurationVar(&o.Hub.Linger, "linger", transport.DefaultLinger, "how long a stream outlives its last client or its end")
	fs.IntVar(&o.SSE.FlushEvery, "flush-every", sse.DefaultFlushEvery, "SSE: flush after this many events (1: every event)")
	fs.DurationVar(&o.SSE.FlushInterval, "flush-interval", sse.DefaultFlushInterval, "SSE: with -flush-every > 1, flush at least this often")
	fs.StringVar(&f.allowOrigins, "allow-origin", "", "comma-separated origins (scheme://host[:port]) browsers may call any endpoint from besides the same origin and loopback origins (* for any)")
	fs.StringVar(&f.allowHost, "allow-host", "", "comma-separated host names the Host header may name besides localhost, *.localhost and IP addresses (* for any)")
	fs.Float64Var(&o.Hub.MaxTotalRate, "max-total-rate", transport.DefaultMaxTotalRate, "budget of messages/s delivered over all open streams (each stream's rate once per subscriber); new streams beyond it get 503")
	fs.IntVar(&o.Hub.MaxSubscribers, "max-subscribers", server.FitDescriptors(transport.DefaultMaxSubscribers), "most SSE and WebSocket subscriptions open at once (default: 20000, or the open file limit less 256 when lower)")
	fs.IntVar(&o.Hub.MaxStreams, "max-streams", server.FitDescriptors(transport.DefaultMaxStreams), "most live streams (a stream lives -linger after its last subscriber left; default: 20000, or the open file limit less 256 when lower)")
	fs.IntVar(&o.MaxConns, "max-conns", server.FitDescriptors(server.DefaultMaxConns), "most connections open at once; more wait to be accepted (default: 25000, or the open file limit less 256 when lower)")
	fs.IntVar(&o.Hub.MaxClientStreams, "max-client-streams", transport.DefaultMaxClientStreams, "most live streams one client (remote IP address) created")
	fs.IntVar(&o.Hub.MaxClientSubscribers, "max-client-subscribers", transport.DefaultMaxClientSubscribers, "most subscriptions one client (remote IP address) holds open")
	fs.Float64Var(&o.Hub.MaxClientRate, "max-client-rate", transport.DefaultMaxClientRate, "share of -max-total-rate one client (remote IP address) may hold, in messages/s (a start= ahead holds none until it starts)")
	fs.DurationVar(&o.ReadHeaderTimeout, "read-header-timeout", server.DefaultReadHeaderTimeout, "time to read a request's headers")
	fs.DurationVar(&o.ReadTimeout, "read-timeout", server.DefaultReadTimeout, "time to read a whole request, body included (streams lift it once they start)")
	fs.DurationVar(&o.WriteTimeout, "write-timeout", server.DefaultWriteTimeout, "time to write a response other than a stream (streams have a deadline per write)")
	fs.DurationVar(&o.IdleTimeout, "idle-timeout", server.DefaultIdleTimeout, "close a keep-alive connection idle this long")
	fs.StringVar(&f.apiDecode, "api-decode", strings.Join(httpapi.DefaultDecodeCodecs, ","), "comma-separated codecs that decode /api/ POST bodies (* for every codec; the default leaves out those docs/findings/hostile.md finds crashing or hanging)")
	fs.Int64Var(&o.API.MaxBodyBytes, "api-max-body", httpapi.DefaultMaxBodyBytes, "largest /api/ POST body, in bytes")
	fs.DurationVar(&o.API.DecodeTimeout, "api-decode-timeout", httpapi.DefaultDecodeTimeout, "time limit of one /api/ body decode (503 past it)")
	fs.IntVar(&o.API.MaxDecodes, "api-max-decodes", httpapi.DefaultMaxDecodes, "most /api/ body decodes running at once (one past its time limit keeps its slot until it returns)")
	fs.IntVar(&o.API.MaxClientDecodes, "api-max-client-decodes", httpapi.DefaultMaxClientDecodes, "most /api/ body decodes of one client (remote IP address) running at once")
	fs.IntVar(&o.API.DecodeWorkers, "api-decode-workers", httpapi.DefaultDecodeWorkers, "child processes that decode /api/ POST bodies, each killed and replaced when a decode passes -api-decode-timeout or -api-decode-memory (0: decode in this process, where a decode past its time runs on)")
	fs.Int64Var(&f.apiDecodeMemory, "api-decode-memory", httpapi.DefaultDecodeMemory>>20, "resident memory of one /api/ decode worker, in MiB (413 past it)")
	fs.IntVar(&o.API.MaxAnswerRatio, "api-max-answer-ratio", httpapi.DefaultMaxAnswerRatio, "largest /api/ POST answer, in times the body (plus 64 KiB); 413 past it")
	fs.DurationVar(&o.WS.PingInterval, "ping", ws.DefaultPingInterval, "WebSocket: ping interval (pong deadline is twice this)")
	fs.BoolVar(&f.compress, "compress", false, "compress when the client asks: gzip on SSE, permessage-deflate on WebSocket (load: ask for it too)")
}

// fitLoad raises the in-process server's -max-total-rate and
// -max-subscribers, unless given on the command line (set), to what a load
// of conns connections at rate messages/s each needs, and each per-client
// share to its whole: load's own server serves only load, one client.
func (f *serverFlags) fitLoad(set map[string]bool, conns int, rate float64) {
	defer func() {
		o := &f.o
		for flag, share := range map[string]func(){
			"max-client-rate":        func() { o.Hub.MaxClientRate = o.Hub.MaxTotalRate },
			"max-client-subscribers": func() { o.Hub.MaxClientSubscribers = o.Hub.MaxSubscribers },
			"max-client-streams":     func() { o.Hub.MaxClientStreams = o.Hub.MaxStreams },
			"api-max-client-decodes": func() { o.API.MaxClientDecodes = o.API.MaxDecodes },
			"api-decode-workers":     func() { o.API.DecodeWorkers = 0 }, // its one client is load itself
		} {
			if !set[flag] {
				share()
			}
		}
	}()
	if !set["max-total-rate"] {
		f.o.Hub.MaxTotalRate = max(f.o.Hub.MaxTotalRate, min(math.Ceil(float64(conns)*rate), transport.MaxMaxTotalRate))
	}
	if !set["max-subscribers"] {
		f.o.Hub.MaxSubscribers = max(f.o.Hub.MaxSubscribers, min(conns, 1<<24))
	}
	if !set["max-conns"] {
		f.o.MaxConns = max(f.o.MaxConns, min(conns+64, 1<<24))
	}
}

// server builds the server of the flags; a value out of its range is a
// usage error.
func (f *serverFlags) server() (*server.Server, error) {
	o, err := f.options()
	if err != nil {
		return nil, err
	}
	srv, err := server.New(o)
	if err != nil {
		return nil, usageError{err} // an option out of its range
	}
	return srv, nil
}

// options returns the server options of the flags; a value that would
// mean "the default" is a usage error.
func (f *serverFlags) options() (server.Options, error) {
	o := f.o
	o.Resolver.Codecs = all.Registry()
	ov, err := transport.ParseOverflow(f.overflow)
	if err != nil {
		return o, usageError{err}
	}
	if o.Hub.MaxTotalRate <= 0 || o.Hub.MaxSubscribers <= 0 || o.Hub.MaxStreams <= 0 || o.MaxConns <= 0 || o.ReadHeaderTimeout <= 0 || o.ReadTimeout <= 0 || o.WriteTimeout <= 0 || o.IdleTimeout <= 0 || o.API.MaxBodyBytes <= 0 || o.API.DecodeTimeout <= 0 ||
		o.Hub.MaxClientStreams <= 0 || o.Hub.MaxClientSubscribers <= 0 || o.Hub.MaxClientRate <= 0 || o.API.MaxDecodes <= 0 || o.API.MaxClientDecodes <= 0 || o.API.MaxAnswerRatio <= 0 ||
		o.Hub.MaxStreamReplayBytes <= 0 || o.Hub.MaxReplayBytes <= 0 {
		// Zero would mean "the default" to the options below: refuse it.
		return o, usagef("-max-total-rate, -max-subscribers, -max-streams, -max-conns, -max-client-streams, -max-client-subscribers, -max-client-rate, -max-stream-replay-bytes, -max-replay-bytes, -read-header-timeout, -read-timeout, -write-timeout, -idle-timeout, -api-max-body, -api-decode-timeout, -api-max-decodes, -api-max-client-decodes and -api-max-answer-ratio must be > 0")
	}
	o.Hub.Overflow, o.SSE.Gzip, o.WS.Compress = ov, f.compress, f.compress
	o.AllowOrigins, o.AllowHosts = splitList(f.allowOrigins), splitList(f.allowHost)
	if f.apiDecodeMemory < httpapi.MinDecodeMemory>>20 || f.apiDecodeMemory > 1<<20 {
		return o, usagef("invalid -api-decode-memory %d MiB (range is [%d, %d])", f.apiDecodeMemory, httpapi.MinDecodeMemory>>20, 1<<20)
	}
	o.API.DecodeMemory = f.apiDecodeMemory << 20
	o.API.DecodeCodecs = splitList(f.apiDecode)
	if o.API.DecodeCodecs == nil {
		o.API.DecodeCodecs = []string{} // none: no POST body is decoded
	}
	return o, nil
}

func cmdServe(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("serve", stderr,
		"usage: serbench serve [flags]",
		"\nEndpoints: GET / (demo page), /sse, /ws, /stats; query: scenario=ID&codec=ID&rate=R[&count=K&stream=NAME]",
		"HTTP APIs: GET and POST /api/{gin|echo|http}/{scenario}[?codec=ID] (or Accept/Content-Type), GET /api/stats")
	addr := fs.String("addr", "127.0.0.1:8080", "listen address (loopback by default)")
	var sf serverFlags
	sf.register(fs)
	if help, err := parseFlags(fs, args, 0, ""); help || err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := server.CheckCaps(sf.o, set); err != nil {
		return usageError{err}
	}
	srv, err := sf.server()
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
